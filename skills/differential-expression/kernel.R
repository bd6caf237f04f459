# Sidecar of the differential-expression skill: edgeR on a count matrix, a results
# table with the conventions stated, and a volcano plot (base graphics).
# Use from an R cell: de <- skill_sidecar("differential-expression").

example_counts <- function() file.path(SKILL_DIR, "data", "marioni_chr4_counts.csv")
example_samples <- function() file.path(SKILL_DIR, "data", "samples.csv")

# A count matrix (genes x samples, integer) from a CSV whose first column is the gene id.
read_counts <- function(path) {
  df <- read.csv(path, check.names = FALSE, stringsAsFactors = FALSE)
  m <- as.matrix(df[, -1, drop = FALSE])
  rownames(m) <- df[[1]]
  if (any(m < 0) || any(m != round(m))) stop("counts must be non-negative integers (raw read counts, not TPM/FPKM)")
  storage.mode(m) <- "integer"
  m
}

# The sample table, rows in the order of the count matrix's columns.
read_samples <- function(path, counts) {
  s <- read.csv(path, stringsAsFactors = FALSE)
  rownames(s) <- s[[1]]
  missing <- setdiff(colnames(counts), rownames(s))
  if (length(missing)) stop("samples.csv lacks: ", paste(missing, collapse = ", "))
  s[colnames(counts), , drop = FALSE]
}

# edgeR quasi-likelihood F-test of `factor`: `numerator` vs `denominator`, after
# filterByExpr and TMM normalisation (the filter and counts are stated in the result).
# Returns a data.frame sorted by p: gene, log2FoldChange, logCPM, F, pvalue, padj (BH).
run_edger <- function(counts, samples, factor, numerator, denominator) {
  suppressPackageStartupMessages(library(edgeR))
  group <- relevel(factor(samples[[factor]]), ref = denominator)
  y <- DGEList(counts, group = group)
  keep <- filterByExpr(y)
  y <- calcNormFactors(y[keep, , keep.lib.sizes = FALSE])
  design <- model.matrix(~group)
  y <- estimateDisp(y, design)
  fit <- glmQLFit(y, design)
  test <- glmQLFTest(fit, coef = paste0("group", numerator))
  tab <- topTags(test, n = Inf, adjust.method = "BH", sort.by = "PValue")$table
  out <- data.frame(gene = rownames(tab), log2FoldChange = tab$logFC, logCPM = tab$logCPM, F = tab$F, pvalue = tab$PValue, padj = tab$FDR, row.names = NULL)
  attr(out, "method") <- sprintf(
    "edgeR %s quasi-likelihood F-test, %s %s vs %s, filterByExpr kept %d of %d genes, TMM normalisation, BH-adjusted p",
    as.character(packageVersion("edgeR")), factor, numerator, denominator, sum(keep), nrow(counts))
  out
}

# Counts of significant genes by direction at padj < alpha and |log2FC| >= lfc.
summarize_de <- function(res, alpha = 0.05, lfc = 1) {
  sig <- !is.na(res$padj) & res$padj < alpha & abs(res$log2FoldChange) >= lfc
  c(up = sum(sig & res$log2FoldChange > 0), down = sum(sig & res$log2FoldChange < 0), tested = sum(!is.na(res$padj)))
}

# Volcano plot: log2 fold change against -log10(padj), significant genes coloured
# (Okabe-Ito blue/vermillion), optional labels. Written to `file` (.png, .svg or .pdf).
volcano <- function(res, file, alpha = 0.05, lfc = 1, label = character(0), title = "Volcano plot") {
  dir.create(dirname(file), showWarnings = FALSE, recursive = TRUE)
  ext <- tolower(tools::file_ext(file))
  if (ext == "svg") svg(file, width = 6, height = 5) else if (ext == "pdf") pdf(file, width = 6, height = 5) else png(file, width = 1200, height = 1000, res = 200)
  on.exit(dev.off())
  ok <- !is.na(res$padj)
  y <- -log10(pmax(res$padj[ok], 1e-300))
  x <- res$log2FoldChange[ok]
  col <- ifelse(res$padj[ok] < alpha & x >= lfc, "#D55E00", ifelse(res$padj[ok] < alpha & x <= -lfc, "#0072B2", "grey70"))
  plot(x, y, pch = 20, col = col, xlab = "log2 fold change", ylab = "-log10 adjusted p", main = title)
  abline(h = -log10(alpha), v = c(-lfc, lfc), lty = 2, col = "grey40")
  hit <- res$gene[ok] %in% label
  if (any(hit)) text(x[hit], y[hit], res$gene[ok][hit], pos = 2, cex = 0.7)
  invisible(file)
}
