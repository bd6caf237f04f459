# OpenAI4S R kernel worker (base R + jsonlite).
#
# Same protocol as the Python worker (DESIGN.md, Kernels): JSON lines, frames to the
# host on fd 3, from the host on fd 4; fd 1/2 stay the cell's stdout/stderr. Base R
# cannot open an inherited descriptor, so two tiny shell helpers bridge them: one copies
# our frames to fd 3, the other copies fd 4 to us and turns an `interrupt` frame into a
# SIGINT for this process (R is single-threaded: it cannot read a frame mid-cell).

suppressPackageStartupMessages(library(jsonlite))

.oai <- new.env()
.oai$out <- pipe("exec cat >&3", open = "w")
.oai$inp <- pipe(paste0(
  "while IFS= read -r l; do case \"$l\" in ",
  "*'\"type\":\"interrupt\"'*) kill -INT $PPID ;; ",
  "*) printf '%s\\n' \"$l\" ;; esac; done <&4"
), open = "r")
.oai$call_seq <- 0L
.oai$cell <- NULL
# The worker's own process: one a cell forks (parallel::mclapply) shares its pipes, and its
# host calls would read the worker's answers.
.oai$pid <- Sys.getpid()

.oai$send <- function(frame) {
  writeLines(as.character(toJSON(frame, auto_unbox = TRUE, null = "null", digits = NA, force = TRUE)), .oai$out, useBytes = TRUE)
  flush(.oai$out)
}

.oai$read_frame <- function() {
  line <- readLines(.oai$inp, n = 1, encoding = "UTF-8")
  if (length(line) == 0) return(list(type = "shutdown"))
  tryCatch(fromJSON(line, simplifyVector = FALSE), error = function(e) list(type = "invalid"))
}

# host_call("save_artifact", path = "plot.png"): one call in flight (R is single-threaded);
# an {"error"} answer raises an R error of class HostError in the cell.
host_call <- function(method, ...) {
  if (Sys.getpid() != .oai$pid) {
    stop(structure(class = c("HostError", "error", "condition"), list(call = NULL, message = paste0(
      method, ": host calls are made from the cell's own process, not from one it forked (parallel::mclapply)"))))
  }
  .oai$call_seq <- .oai$call_seq + 1L
  id <- .oai$call_seq
  args <- list(...)
  if (length(args) == 0) args <- structure(list(), names = character(0))
  .oai$send(list(type = "host_call", id = id, cell = .oai$cell, method = method, args = args))
  repeat {
    frame <- .oai$read_frame()
    if (identical(frame$type, "shutdown")) stop("the host went away during host_call")
    if (identical(frame$type, "host_response") && identical(as.integer(frame$id), id)) break
  }
  # An answer to a call of an interrupted cell: the interrupt, even if R has not seen its SIGINT yet.
  if (isTRUE(frame$interrupted)) stop(structure(class = c("interrupt", "condition"), list(message = "interrupted", call = NULL)))
  if (!is.null(frame$error)) {
    stop(structure(class = c("HostError", "error", "condition"),
      list(message = paste0(method, ": ", frame$error), call = NULL)))
  }
  frame$result
}
save_artifact <- function(path, ...) host_call("save_artifact", path = path, ...)

# A skill's folder as this kernel sees it: the read-only mount under the sandbox
# (/opt/openai4s/skills/<name>), else the host folder itself (OPENAI4S_SKILLS_AT says which).
skill_path <- function(name) {
  folders <- tryCatch(fromJSON(Sys.getenv("OPENAI4S_SKILLS", "{}")), error = function(e) list())
  folder <- folders[[name]]
  if (is.null(folder)) {
    stop(structure(class = c("HostError", "error", "condition"), list(call = NULL, message = paste0(
      "skills.path: skill \"", name, "\" is not available to this kernel (not enabled, or enabled after it started: restart the kernel to mount it)"))))
  }
  folder
}

# skill_sidecar("differential-expression"): loads the skill through the host (the run
# records its name, source and sha256), checks that kernel.R parses, and sources it into
# an environment of its own, returned (fns <- skill_sidecar(...); fns$run_deseq2(...)).
skill_sidecar <- function(name) {
  answer <- host_call("skills.load", name = name)
  sidecar <- answer$output$skill$sidecar
  if (!identical(sidecar, "kernel.R")) {
    stop(structure(class = c("HostError", "error", "condition"), list(call = NULL, message = paste0(
      "skills.sidecar: skill \"", name, "\" has ", if (is.null(sidecar)) "no kernel.R sidecar" else paste0("a ", sidecar, " sidecar: use host.skills.sidecar in a Python cell")))))
  }
  file <- file.path(skill_path(name), "kernel.R")
  exprs <- tryCatch(parse(file = file, keep.source = FALSE), error = function(e) {
    stop(structure(class = c("HostError", "error", "condition"), list(call = NULL, message = paste0(
      "skills.sidecar: ", name, "/kernel.R does not parse: ", conditionMessage(e)))))
  })
  env <- new.env(parent = globalenv())
  assign("SKILL_DIR", dirname(file), envir = env)
  for (e in exprs) eval(e, env)
  env
}

.oai$peak_rss_kb <- function() {
  status <- tryCatch(readLines("/proc/self/status"), error = function(e) character(0))
  hwm <- grep("^VmHWM:", status, value = TRUE)
  if (length(hwm) == 0) return(NULL)
  as.numeric(gsub("[^0-9]", "", hwm))
}

# Every finished page of the cell's PNG device, recorded so it can be drawn again as SVG
# (issue 25: figures save as SVG too). A page is finished when the next high-level plot
# starts a new one (base graphics: par("page"); grid: every grid.newpage()) and when the
# cell ends. The PNG device keeps a display list only when asked (file devices do not).
.oai$pages <- list()
# The cell's capture devices: device number -> the order it was opened in (its files'
# prefix); pages are kept with that order so they pair with the PNG files sorted by name.
.oai$capture <- integer(0)
.oai$plot_dir <- NULL
.oai$opened <- 0L
.oai$snap_page <- function(starts_page) {
  seq <- .oai$capture[as.character(dev.cur()[[1]])]
  if (length(seq) != 1L || is.na(seq) || !isTRUE(starts_page)) return(invisible())
  p <- tryCatch(recordPlot(), error = function(e) NULL)
  if (!is.null(p) && .oai$draws(p)) .oai$pages[[length(.oai$pages) + 1]] <- list(seq = seq, plot = p)
  invisible()
}
# Whether a recorded page draws: par() and layout() alone (par(mfrow = ...) on a fresh
# device, before the first plot) start no page and write no PNG, so they are no page here.
.oai$draws <- function(p) {
  for (entry in p[[1]]) {
    routine <- tryCatch(entry[[2]][[1]], error = function(e) NULL)
    name <- if (is.list(routine)) routine$name else NULL
    if (!is.character(name) || !(name %in% c("C_par", "C_layout"))) return(TRUE)
  }
  FALSE
}

# R's default device (getOption("device")), opened by the first plot when none is open: a
# cell's capture device. A cell that called dev.off() or graphics.off() closed the worker's
# PNG device, and the next plot opened pdf("Rplots.pdf") in the workspace: a stray file and
# no figure. dev.new() opens one too. Outside a cell a plot draws nowhere (pdf(NULL)).
.oai$open_capture <- function(...) {
  if (is.null(.oai$plot_dir)) return(invisible(grDevices::pdf(NULL)))
  .oai$opened <- .oai$opened + 1L
  seq <- .oai$opened
  grDevices::png(file.path(.oai$plot_dir, sprintf("plot-%03d-%%03d.png", seq)), width = 800, height = 600)
  dev <- dev.cur()[[1]]
  .oai$capture <- c(.oai$capture[names(.oai$capture) != as.character(dev)], structure(seq, names = as.character(dev)))
  dev.control(displaylist = "enable")
  invisible()
}

# Closing a capture device finishes its page: recorded first (for its SVG), and the device
# leaves the table. The device that is current afterwards is the one R would choose.
.oai$closing <- function(which) {
  key <- as.character(which)
  if (is.na(.oai$capture[key])) return(invisible())
  cur <- dev.cur()[[1]]
  if (cur != which) dev.set(which)
  .oai$snap_page(TRUE)
  if (cur != which) dev.set(cur)
  .oai$capture <- .oai$capture[names(.oai$capture) != key]
  invisible()
}
dev.off <- function(which = dev.cur()) {
  if (which != 1) .oai$closing(which)
  grDevices::dev.off(which)
}
graphics.off <- function() {
  for (d in dev.list()) .oai$closing(d)
  grDevices::graphics.off()
}
setHook("before.plot.new", function() .oai$snap_page(tryCatch(par("page"), error = function(e) FALSE)))
setHook("before.grid.newpage", function() .oai$snap_page(TRUE))
.oai$SVG_MAX_BYTES <- 4 * 1024 * 1024

# The recorded pages as SVG text (NULL for a page that could not be drawn or is too big);
# only when every PNG page has its record, so a PNG and an SVG never pair the wrong pages.
.oai$page_svgs <- function(plot_dir, png_count) {
  pages <- .oai$pages
  .oai$pages <- list()
  pages <- lapply(pages[order(vapply(pages, function(p) p$seq, 0L))], function(p) p$plot)  # order() is stable
  if (length(pages) != png_count || !isTRUE(capabilities("cairo"))) return(vector("list", png_count))
  lapply(seq_along(pages), function(i) {
    f <- file.path(plot_dir, sprintf("page-%03d.svg", i))
    grDevices::svg(f, width = 800 / 72, height = 600 / 72)
    dev <- dev.cur()[[1]]
    # Closed before the file is read: cairo writes the SVG when its device closes.
    ok <- tryCatch({
      replayPlot(pages[[i]])
      TRUE
    }, error = function(e) FALSE, finally = if (dev %in% dev.list()) grDevices::dev.off(dev))
    if (!ok || !file.exists(f) || file.info(f)$size > .oai$SVG_MAX_BYTES) return(NULL)
    text <- rawToChar(readBin(f, "raw", file.info(f)$size))
    Encoding(text) <- "UTF-8"
    text
  })
}

# A table the app renders itself (issue 25: sortable, paged, copyable): the data of a
# data.frame or a two-dimensional matrix, as the Python worker's TABLE_MIME; never HTML.
# Cut by rows to stay under the host's 64 KiB text cap; NA, NaN and Inf become null.
.oai$TABLE_MIME <- "application/vnd.openai4s.table+json"
.oai$TABLE_MAX_BYTES <- 56 * 1024
.oai$TABLE_MAX_ROWS <- 1000L

.oai$table_column <- function(col) {
  if (is.factor(col)) col <- as.character(col)
  if (is.double(col)) return(lapply(col, function(v) if (is.finite(v)) v else NULL))
  if (is.integer(col) || is.logical(col)) return(lapply(col, function(v) if (is.na(v)) NULL else v))
  if (!is.character(col)) col <- tryCatch(format(col), error = function(e) rep("?", length(col)))
  lapply(col, function(v) if (is.na(v)) NULL else substr(v, 1, 200))
}

.oai$table_json <- function(value) {
  if (!is.data.frame(value) && !(is.matrix(value) && length(dim(value)) == 2L)) return(NULL)
  tryCatch({
    frame <- if (is.data.frame(value)) value else as.data.frame(value, stringsAsFactors = FALSE)
    columns <- if (is.null(colnames(value))) paste0("V", seq_len(ncol(frame))) else colnames(value)
    dtypes <- if (is.matrix(value)) rep(typeof(value), ncol(frame)) else unname(vapply(frame, function(col) class(col)[1], ""))
    rows <- min(nrow(frame), .oai$TABLE_MAX_ROWS)
    repeat {
      cells <- unname(lapply(frame[seq_len(rows), , drop = FALSE], .oai$table_column))
      table <- list(
        columns = I(as.character(columns)),
        dtypes = I(as.character(dtypes)),
        index = I(as.character(utils::head(rownames(frame), rows))),
        rows = lapply(seq_len(rows), function(i) lapply(cells, function(col) col[[i]])),
        total_rows = nrow(frame)
      )
      text <- as.character(toJSON(table, auto_unbox = TRUE, null = "null", na = "null", digits = NA))
      if (nchar(text, type = "bytes") <= .oai$TABLE_MAX_BYTES) return(text)
      if (rows <= 1L) return(NULL)  # too wide even for one row: the printed text stands alone
      rows <- rows %/% 2L
    }
  }, error = function(e) NULL)
}

# A visible value: a table goes as a display (its printed text beside its data), else it is printed.
.oai$show_value <- function(id, value) {
  table <- .oai$table_json(value)
  if (is.null(table)) return(invisible(print(value)))
  data <- list()
  data[["text/plain"]] <- paste(utils::capture.output(print(value)), collapse = "\n")
  data[[.oai$TABLE_MIME]] <- table
  .oai$send(list(type = "display", id = id, data = data))
}

# Warnings. R prints a top-level call's deferred warnings when the call returns to the
# prompt; a cell's code never returns to a prompt (the worker's loop runs it), so without
# this every warning was lost (glm's "fitted probabilities numerically 0 or 1", chisq.test's
# "approximation may be incorrect"). They are said on stderr after each top-level
# expression, in R's words, and warnings() lists them; options(warn) is followed (negative:
# none, 1: at once, 2: R makes them errors).
.oai$warned <- list()
.oai$warned_n <- 0L

.oai$collect_warning <- function(w) {
  level <- suppressWarnings(as.integer(getOption("warn", 0L)))
  if (length(level) != 1L || is.na(level)) level <- 0L
  if (level >= 2L) return(invisible())
  if (level >= 1L) cat("Warning: ", .oai$warning_line(w), "\n", sep = "", file = stderr())
  else if (level == 0L) {
    .oai$warned_n <- .oai$warned_n + 1L
    if (.oai$warned_n <= 50L) .oai$warned[[.oai$warned_n]] <- w
  }
  invokeRestart("muffleWarning")
}

# A warning's call, or NULL for the cell's own top level (the worker's eval is not the user's code).
.oai$warning_call <- function(w) {
  call <- conditionCall(w)
  if (is.null(call) || startsWith(paste(deparse(call, nlines = 1L), collapse = " "), "eval(exprs[[i]]")) NULL else call
}

.oai$warning_line <- function(w) {
  call <- .oai$warning_call(w)
  if (is.null(call)) conditionMessage(w) else paste0("In ", paste(deparse(call, nlines = 1L), collapse = " "), " : ", conditionMessage(w))
}

.oai$flush_warnings <- function() {
  n <- .oai$warned_n
  if (n == 0L) return(invisible())
  kept <- .oai$warned
  .oai$warned <- list()
  .oai$warned_n <- 0L
  last <- lapply(kept, .oai$warning_call)
  names(last) <- vapply(kept, conditionMessage, "")
  .oai$last_warning <- last
  text <- if (n == 1L) {
    paste0("Warning message:\n", .oai$warning_line(kept[[1L]]))
  } else if (n <= 10L) {
    paste0("Warning messages:\n", paste0(seq_len(n), ": ", vapply(kept, .oai$warning_line, ""), collapse = "\n"))
  } else if (n <= 50L) {
    sprintf("There were %d warnings (use warnings() to see them)", n)
  } else {
    "There were 50 or more warnings (use warnings() to see the first 50)"
  }
  cat(text, "\n", sep = "", file = stderr())
}

# R's warnings() reads base's last.warning, which only R's prompt may set: this one, on the
# search path before base, lists the warnings kept above.
warnings <- function(...) {
  last <- .oai$last_warning
  if (is.null(last)) last <- structure(list(), names = character())
  structure(last, dots = list(...), class = "warnings")
}

# q() at the end of a pasted script ended the kernel and every variable with it; a cell's
# sys.exit() in Python is an error and the kernel stays. So is q() here.
quit <- function(...) {
  stop(structure(class = c("quitRefused", "error", "condition"), list(
    message = "q() is not run in a cell: the kernel and its variables stay (restart the kernel to start afresh)",
    call = NULL)))
}
q <- quit

# A sink() the cell left open took the worker's end marker with it (the cell then waited for
# its time limit) and every later cell's output. The cell's own lines stay where it sent them.
.oai$close_sinks <- function() {
  n <- sink.number()
  if (n > 0) for (i in seq_len(n)) sink()
  message_sink <- sink.number(type = "message") != 2L
  if (message_sink) sink(type = "message")
  if (n > 0 || message_sink) {
    cat("sink() was left open by this cell and is closed now, so the next cells print here (end a sink with sink() in the cell that opens it)\n", file = stderr())
  }
}

# base's closeAllConnections() (a script's "clean slate" line) closed the worker's own pipes
# to the app too, and the kernel ended a minute later. This one closes all but those two.
closeAllConnections <- function() {
  if (sink.number(type = "message") != 2L) sink(type = "message")
  n <- sink.number()
  if (n > 0L) for (i in seq_len(n)) sink()
  own <- c(as.integer(.oai$out), as.integer(.oai$inp))
  for (i in setdiff(getAllConnections(), c(0:2, own))) try(close(getConnection(i)), silent = TRUE)
  invisible()
}

.oai$execute <- function(frame) {
  id <- frame$id
  .oai$cell <- id
  fname <- sprintf("<cell-%s>", if (is.null(frame$cell)) id else frame$cell)
  t0 <- proc.time()
  plot_dir <- tempfile("plots")
  dir.create(plot_dir)
  devices_before <- dev.list()
  .oai$plot_dir <- plot_dir
  .oai$capture <- integer(0)
  .oai$opened <- 0L
  .oai$pages <- list()
  .oai$open_capture()
  line <- NA_integer_
  error <- NULL
  tryCatch({
    lines <- strsplit(frame$code, "\n", fixed = TRUE)[[1]]
    exprs <- parse(text = frame$code, keep.source = TRUE, srcfile = srcfilecopy(fname, lines))
    refs <- attr(exprs, "srcref")
    for (i in seq_along(exprs)) {
      line <- if (!is.null(refs)) refs[[i]][1] else NA_integer_
      withCallingHandlers({
        value <- withVisible(eval(exprs[[i]], globalenv()))
        if (value$visible) .oai$show_value(id, value$value)
      }, warning = .oai$collect_warning)
      .oai$flush_warnings()
    }
  }, error = function(e) {
    if (inherits(e, "HostError")) ename <- "HostError" else ename <- class(e)[1]
    msg <- conditionMessage(e)
    if (is.na(line)) {
      m <- regmatches(msg, regexpr("^<text>:[0-9]+|:([0-9]+):[0-9]+:", msg))
      line <<- suppressWarnings(as.integer(gsub("[^0-9].*$", "", sub("^[^0-9]*", "", m))))
    }
    call <- conditionCall(e)
    where <- if (!is.null(call)) paste(deparse(call), collapse = " ") else ""
    # The worker's own eval() is not the user's code: name the cell line only.
    where <- if (nzchar(where) && !startsWith(where, "eval(exprs[[i]]")) paste0(" in ", where) else ""
    error <<- list(ename = ename, evalue = msg,
      traceback = sprintf("Error%s (%s, line %s): %s\n", where, fname, ifelse(is.na(line), "?", line), msg),
      line = if (is.na(line)) NULL else line)
  }, interrupt = function(e) {
    error <<- list(ename = "KeyboardInterrupt", evalue = "interrupted",
      traceback = sprintf("Interrupted (%s, line %s)\n", fname, ifelse(is.na(line), "?", line)),
      line = if (is.na(line)) NULL else line)
  })
  .oai$flush_warnings()  # those of the expression that failed (R's "In addition: ...")
  .oai$close_sinks()
  # The page on screen when the cell ended is finished too (on each capture device still open).
  for (d in intersect(as.integer(names(.oai$capture)), dev.list())) {
    dev.set(d)
    .oai$snap_page(TRUE)
  }
  .oai$capture <- integer(0)
  .oai$plot_dir <- NULL
  # Close the cell's file devices (and any the cell left open after them) to write the plots.
  for (d in setdiff(dev.list(), devices_before)) try(grDevices::dev.off(d), silent = TRUE)
  pngs <- Filter(function(f) file.info(f)$size > 0, sort(list.files(plot_dir, pattern = "^plot-.*[.]png$", full.names = TRUE)))
  svgs <- .oai$page_svgs(plot_dir, length(pngs))
  for (i in seq_along(pngs)) {
    bytes <- readBin(pngs[[i]], "raw", file.info(pngs[[i]])$size)
    data <- list("image/png" = base64_enc(bytes))
    if (!is.null(svgs[[i]])) data[["image/svg+xml"]] <- svgs[[i]]
    .oai$send(list(type = "display", id = id, data = data))
  }
  unlink(plot_dir, recursive = TRUE)
  flush(stdout())
  flush(stderr())
  marker <- paste0("\001", frame$marker, "\001")
  cat(marker, file = stdout())
  cat(marker, file = stderr())
  flush(stdout())
  flush(stderr())
  used <- proc.time() - t0
  usage <- list(wall_ms = 1000 * used[["elapsed"]], cpu_ms = 1000 * (used[["user.self"]] + used[["sys.self"]]))
  rss <- .oai$peak_rss_kb()
  if (!is.null(rss)) usage$peak_rss_kb <- rss
  .oai$cell <- NULL
  result <- list(type = "result", id = id, ok = is.null(error), usage = usage)
  if (!is.null(error)) result$error <- error
  .oai$send(result)
}

# The host API lives in an environment on the search path, not in the cells' global
# environment: `rm(list = ls(all.names = TRUE))`, a common first line, must neither take
# host_call away nor end the kernel. Its functions look names up there first.
local({
  api <- attach(NULL, name = "openai4s")
  move <- c(".oai", "host_call", "save_artifact", "skill_path", "skill_sidecar", "warnings", "quit", "q", "closeAllConnections", "dev.off", "graphics.off")
  for (name in move) {
    value <- get(name, envir = globalenv())
    if (is.function(value)) environment(value) <- api
    assign(name, value, envir = api)
  }
  for (name in ls(api$.oai, all.names = TRUE)) {
    value <- get(name, envir = api$.oai)
    if (is.function(value)) {
      environment(value) <- api
      assign(name, value, envir = api$.oai)
    }
  }
  rm(list = move, envir = globalenv())
})

options(device = .oai$open_capture)

.oai$send(list(type = "ready", pid = Sys.getpid(), language = "r",
  version = paste(R.version$major, R.version$minor, sep = ".")))
# In a local scope: the loop's `frame` is not a variable of the cells' global environment.
# It is the file's last expression: R's debugger (browser(), debug()) reads its commands
# from the script being run, and found the lines after the loop there (it ran the quit).
local({
  repeat {
    frame <- tryCatch(.oai$read_frame(), interrupt = function(e) list(type = "idle-interrupt"))
    if (identical(frame$type, "shutdown")) break
    if (identical(frame$type, "execute")) .oai$execute(frame)
    if (identical(frame$type, "warmup")) .oai$send(list(type = "warm", modules = list(), ms = 0))
  }
  base::quit(save = "no", status = 0)
})
