#!/bin/sh
# Installs, updates, removes or diagnoses OpenAI4S (the Linux build) inside a WSL2
# distribution. The Windows launcher (OpenAI4S.ps1) runs it with `wsl -d <distro>`; it is
# plain POSIX sh and works the same on any Debian or Ubuntu, which is how it is tested
# (tests/release/wslInstall.test.ts).
#
#   install-in-distro.sh --source DIR|TARBALL --version V [--no-packages]
#   install-in-distro.sh --packages-only       (as root: apt only, no prompt for a password)
#   install-in-distro.sh --uninstall
#   install-in-distro.sh --diagnose
#
# Progress goes to stdout as "[n/N] what" lines (the launcher shows them as a progress bar).
# Overrides, for tests and unusual setups:
#   OPENAI4S_PREFIX      where the app goes (default ~/.local: lib/openai4s, bin, share)
#   OPENAI4S_APT         the apt-get command (default apt-get as root, else sudo apt-get)
#   OPENAI4S_DPKG_QUERY  the dpkg-query command (default dpkg-query)
#   OPENAI4S_SYSROOT     read /etc/os-release, /proc and /mnt/wslg under this folder
set -eu

PROGRAM=install-in-distro.sh
PREFIX=${OPENAI4S_PREFIX:-$HOME/.local}
DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}
LIB=$PREFIX/lib/openai4s
BIN=$PREFIX/bin/openai4s-desktop
DESKTOP=$DATA_HOME/applications/openai4s.desktop
ICON=$DATA_HOME/icons/hicolor/512x512/apps/openai4s.png
SYSROOT=${OPENAI4S_SYSROOT:-}
DPKG_QUERY=${OPENAI4S_DPKG_QUERY:-dpkg-query}
HERE=$(cd "$(dirname "$0")" && pwd)

# What Electron needs on a minimal distribution (electron-builder's deb Depends, plus the
# GPU buffer and sound libraries), then what the kernels need: the same list as the deb's
# Recommends (src-main/core/doctor/systemPackages.ts).
APP_PACKAGES="libgtk-3-0 libnotify4 libnss3 libxss1 libxtst6 xdg-utils libatspi2.0-0 libuuid1 libsecret-1-0 libgbm1 libasound2"
KERNEL_PACKAGES="bubblewrap bindfs fuse3 python3 python3-numpy python3-pandas python3-matplotlib r-base-core r-cran-jsonlite"

die() {
  echo "$PROGRAM: $1" >&2
  exit "${2:-1}"
}

step() {
  echo "[$1/$2] $3"
}

usage() {
  echo "usage: $PROGRAM --source DIR|TARBALL --version V [--no-packages] | --packages-only | --uninstall | --diagnose"
}

apt_command() {
  if [ -n "${OPENAI4S_APT:-}" ]; then
    echo "$OPENAI4S_APT"
  elif [ "$(id -u)" -eq 0 ]; then
    command -v apt-get >/dev/null 2>&1 || die "this distribution has no apt-get: use Debian or Ubuntu (in Windows: wsl --install -d Debian)" 4
    echo apt-get
  else
    command -v apt-get >/dev/null 2>&1 || die "this distribution has no apt-get: use Debian or Ubuntu (in Windows: wsl --install -d Debian)" 4
    command -v sudo >/dev/null 2>&1 || die "apt-get needs root and there is no sudo: run $PROGRAM --packages-only as root (wsl -u root)" 4
    echo "sudo apt-get"
  fi
}

installed() {
  # shellcheck disable=SC2016 # ${Status} is dpkg-query's format, not the shell's
  $DPKG_QUERY -W -f='${Status}\n' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing_packages() {
  missing=""
  for pkg in $APP_PACKAGES $KERNEL_PACKAGES; do
    installed "$pkg" || missing="$missing $pkg"
  done
  echo "${missing# }"
}

install_packages() {
  missing=$(missing_packages)
  if [ -z "$missing" ]; then
    echo "    all system packages are present"
    return 0
  fi
  apt=$(apt_command)
  echo "    installing: $missing"
  # The package lists of a fresh distribution are empty; update first.
  DEBIAN_FRONTEND=noninteractive $apt update -q || die "apt-get update failed: check the distribution's network, then run OpenAI4S again" 3
  # shellcheck disable=SC2086 # one word per package
  DEBIAN_FRONTEND=noninteractive $apt install -y -q --no-install-recommends $missing ||
    die "apt-get install failed: run 'sudo apt-get install $missing' in the distribution to see why" 3
}

os_name() {
  if [ -r "$SYSROOT/etc/os-release" ]; then
    # shellcheck source=/dev/null
    (. "$SYSROOT/etc/os-release" && echo "${PRETTY_NAME:-${NAME:-unknown}}")
  else
    echo unknown
  fi
}

kernel_release() {
  cat "$SYSROOT/proc/sys/kernel/osrelease" 2>/dev/null || uname -r
}

is_wsl2() {
  case $(kernel_release) in
    *microsoft-standard-WSL2* | *WSL2*) return 0 ;;
    *) return 1 ;;
  esac
}

current_version() {
  if [ -L "$LIB/current" ]; then
    basename "$(readlink "$LIB/current")"
  fi
}

write_launchers() {
  mkdir -p "$(dirname "$BIN")" "$(dirname "$DESKTOP")"
  cat >"$BIN.new" <<EOF
#!/bin/sh
# OpenAI4S, installed by $PROGRAM (remove with: $PROGRAM --uninstall)
exec "$LIB/current/openai4s-desktop" "\$@"
EOF
  chmod 755 "$BIN.new"
  mv -f "$BIN.new" "$BIN"
  icon_line="Icon=openai4s"
  if [ -f "$HERE/openai4s.png" ]; then
    mkdir -p "$(dirname "$ICON")"
    cp "$HERE/openai4s.png" "$ICON"
    icon_line="Icon=$ICON"
  fi
  # WSLg lists the distribution's desktop entries in the Windows Start menu.
  cat >"$DESKTOP" <<EOF
[Desktop Entry]
Type=Application
Name=OpenAI4S
Comment=Research-agent workbench: cited answers, sandboxed Python and R kernels
Exec="$BIN" %U
$icon_line
Categories=Science;Education;
MimeType=application/x-openai4s-package;
Terminal=false
EOF
}

# Copies or unpacks the build into $LIB/<version>, then points current at it.
install_app() {
  src=$1
  version=$2
  case $version in
    "" | *[!A-Za-z0-9._+-]*) die "--version must be a version number such as 0.1.0, not '$version'" 2 ;;
  esac
  if [ "$(current_version)" = "$version" ] && [ -x "$LIB/$version/openai4s-desktop" ]; then
    echo "    OpenAI4S $version is installed already"
    return 0
  fi
  mkdir -p "$LIB"
  incoming=$LIB/.incoming-$$
  rm -rf "$incoming"
  mkdir -p "$incoming"
  trap 'rm -rf "$incoming"' EXIT
  if [ -d "$src" ]; then
    cp -R "$src/." "$incoming/"
  else
    tar -xzf "$src" -C "$incoming" || die "cannot unpack $src (a .tar.gz of the Linux build is expected)" 2
  fi
  # The tarball holds linux-unpacked/; a folder is the app itself.
  app=$incoming
  if [ ! -e "$app/openai4s-desktop" ]; then
    for candidate in "$incoming"/*/; do
      if [ -e "$candidate/openai4s-desktop" ]; then app=${candidate%/}; fi
    done
  fi
  [ -x "$app/openai4s-desktop" ] || die "$src is not a Linux build of OpenAI4S (no executable openai4s-desktop in it)" 2
  [ -f "$app/resources/app.asar" ] || die "$src is not a Linux build of OpenAI4S (no resources/app.asar in it)" 2
  rm -rf "${LIB:?}/$version"
  mv "$app" "$LIB/$version"
  ln -sfn "$version" "$LIB/current"
  for old in "$LIB"/*; do
    if [ -d "$old" ] && [ ! -L "$old" ] && [ "$(basename "$old")" != "$version" ]; then rm -rf "$old"; fi
  done
  rm -rf "$incoming"
  trap - EXIT
  echo "    OpenAI4S $version is in $LIB/$version"
}

do_install() {
  src=$1
  version=$2
  with_packages=$3
  total=5
  step 1 $total "Checking this distribution"
  [ -e "$src" ] || die "$src does not exist (the Linux build the launcher hands over)" 2
  if is_wsl2; then
    echo "    $(os_name) on WSL2 ($(kernel_release))"
  else
    echo "    $(os_name), not WSL2 ($(kernel_release)): installing anyway"
  fi
  if [ "$with_packages" = yes ]; then
    step 2 $total "Installing system packages (apt)"
    install_packages
  else
    step 2 $total "System packages: left to --packages-only"
  fi
  step 3 $total "Installing OpenAI4S $version"
  install_app "$src" "$version"
  step 4 $total "Adding the launcher and the Start menu entry"
  write_launchers
  echo "    $BIN"
  step 5 $total "Done"
  echo "    start it with: $BIN"
}

do_uninstall() {
  step 1 2 "Removing OpenAI4S"
  had=$(current_version)
  rm -rf "$LIB" "$BIN" "$DESKTOP" "$ICON"
  step 2 2 "Done"
  if [ -n "$had" ]; then echo "    removed OpenAI4S $had"; else echo "    OpenAI4S was not installed"; fi
  echo "    kept: your sessions in ${OPENAI4S_DATA_DIR:-$HOME/.openai4s} (delete the folder to remove them) and the apt packages"
}

do_diagnose() {
  echo "distribution: $(os_name)"
  if is_wsl2; then echo "wsl: WSL2 ($(kernel_release))"; else echo "wsl: not WSL2 ($(kernel_release))"; fi
  if [ -n "${WAYLAND_DISPLAY:-}${DISPLAY:-}" ] || [ -d "$SYSROOT/mnt/wslg" ]; then
    echo "display: DISPLAY=${DISPLAY:-unset} WAYLAND_DISPLAY=${WAYLAND_DISPLAY:-unset}$([ -d "$SYSROOT/mnt/wslg" ] && echo ' (WSLg)')"
  else
    echo "display: none (WSLg needs Windows 11 or Windows 10 21H2+ with wsl --update)"
  fi
  version=$(current_version)
  echo "installed: ${version:-none}${version:+ in $LIB/$version}"
  missing=$(missing_packages)
  echo "missing packages: ${missing:-none}"
  if command -v bwrap >/dev/null 2>&1; then
    if bwrap --ro-bind / / --dev /dev --proc /proc true 2>/dev/null; then echo "sandbox: bwrap works"; else echo "sandbox: bwrap cannot create namespaces here"; fi
  else
    echo "sandbox: bwrap not installed"
  fi
  if command -v python3 >/dev/null 2>&1; then echo "python3: $(python3 --version 2>&1)"; else echo "python3: missing"; fi
  if command -v Rscript >/dev/null 2>&1; then echo "R: $(Rscript --version 2>&1 | head -n 1)"; else echo "R: missing"; fi
}

mode=install
src=
version=
with_packages=yes
while [ $# -gt 0 ]; do
  case $1 in
    --source) [ $# -ge 2 ] || die "--source needs a path" 2; src=$2; shift 2 ;;
    --version) [ $# -ge 2 ] || die "--version needs a value" 2; version=$2; shift 2 ;;
    --no-packages) with_packages=no; shift ;;
    --packages-only) mode=packages; shift ;;
    --uninstall) mode=uninstall; shift ;;
    --diagnose) mode=diagnose; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option $1 ($(usage))" 2 ;;
  esac
done

case $mode in
  install)
    if [ -z "$src" ] || [ -z "$version" ]; then die "--source and --version are needed ($(usage))" 2; fi
    do_install "$src" "$version" "$with_packages"
    ;;
  packages)
    step 1 1 "Installing system packages (apt)"
    install_packages
    ;;
  uninstall) do_uninstall ;;
  diagnose) do_diagnose ;;
esac
