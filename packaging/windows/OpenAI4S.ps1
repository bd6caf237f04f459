<#
.SYNOPSIS
  OpenAI4S on Windows: runs the Linux build of the app inside WSL2.

.DESCRIPTION
  The kernels need the Linux sandbox (bubblewrap), so on Windows the app is the Linux
  build, run in a WSL2 distribution and shown through WSLg. This launcher:
    1. checks that WSL2 is there, and says how to install it when it is not;
    2. picks a Debian or Ubuntu distribution (or installs Debian);
    3. on first run, and when this launcher carries a newer build, installs or updates the
       app and its apt packages inside the distribution with install-in-distro.sh,
       showing its progress;
    4. starts the app.
  Usage (OpenAI4S.cmd passes its arguments on):
    OpenAI4S.cmd                      start (installing or updating first when needed)
    OpenAI4S.cmd --diagnose           what is installed where, and what is missing
    OpenAI4S.cmd --uninstall          remove the app from the distribution (sessions stay)
    OpenAI4S.cmd --distro NAME        use that WSL distribution (remembered)
  This file stays ASCII: Windows PowerShell 5.1 reads BOM-less scripts as ANSI.
#>
[CmdletBinding()]
param([Parameter(ValueFromRemainingArguments = $true)] [string[]] $Arguments = @())

Set-StrictMode -Version 3
$ErrorActionPreference = 'Stop'

$Here = Split-Path -Parent $MyInvocation.MyCommand.Path
$StateDir = Join-Path $env:LOCALAPPDATA 'OpenAI4S'
$StateFile = Join-Path $StateDir 'launcher.json'
$InstallScript = 'install-in-distro.sh'
# wsl.exe prints UTF-16 unless told otherwise; with WSL_UTF8 it prints UTF-8.
$env:WSL_UTF8 = '1'

function Exit-WithMessage([string] $Message, [int] $Code = 1) {
  Write-Host "OpenAI4S: $Message" -ForegroundColor Red
  exit $Code
}

function Read-LauncherOption([string[]] $List) {
  $options = @{ Mode = 'start'; Distro = $null }
  for ($i = 0; $i -lt $List.Count; $i++) {
    switch ($List[$i]) {
      { $_ -in '--uninstall', '-uninstall', '/uninstall' } { $options.Mode = 'uninstall' }
      { $_ -in '--diagnose', '-diagnose', '/diagnose' } { $options.Mode = 'diagnose' }
      { $_ -in '--distro', '-distro' } {
        if ($i + 1 -ge $List.Count) { Exit-WithMessage '--distro needs the name of a WSL distribution (wsl --list shows them)' 2 }
        $i++
        $options.Distro = $List[$i]
      }
      { $_ -in '--help', '-h', '/?' } { $options.Mode = 'help' }
      default { Exit-WithMessage "unknown option $($List[$i]) (use --diagnose, --uninstall or --distro NAME)" 2 }
    }
  }
  return $options
}

function Read-State {
  if (Test-Path $StateFile) {
    try { return Get-Content $StateFile -Raw | ConvertFrom-Json } catch { Write-Verbose "ignoring unreadable $StateFile" }
  }
  return [pscustomobject]@{ distro = $null; version = $null }
}

function Save-State($State) {
  New-Item -ItemType Directory -Force -Path $StateDir | Out-Null
  $State | ConvertTo-Json | Set-Content -Path $StateFile -Encoding UTF8
}

# Runs wsl.exe and returns its output lines (NULs removed, for WSL versions that ignore WSL_UTF8).
function Invoke-WslText([string[]] $WslArgs) {
  $previous = $ErrorActionPreference
  $ErrorActionPreference = 'Continue'
  try {
    $lines = & wsl.exe @WslArgs 2>&1 | ForEach-Object { ("$_" -replace "`0", '').TrimEnd() }
    return [pscustomobject]@{ Code = $LASTEXITCODE; Lines = @($lines | Where-Object { $_ -ne '' }) }
  } finally {
    $ErrorActionPreference = $previous
  }
}

# Runs the install script in the distribution, showing its "[n/N] what" lines as progress.
# It runs in the launcher's folder (wsl --cd takes the Windows path and translates it), so
# the script and the bundle are named relatively and a space in the path needs no quoting.
function Invoke-InstallScript([string] $Distro, [string[]] $ScriptArgs, [switch] $AsRoot) {
  $wslArgs = @('-d', $Distro)
  if ($AsRoot) { $wslArgs += @('-u', 'root') }
  $wslArgs += @('--cd', $Here, '--', 'sh', "./$InstallScript") + $ScriptArgs
  $previous = $ErrorActionPreference
  $ErrorActionPreference = 'Continue'
  try {
    & wsl.exe @wslArgs 2>&1 | ForEach-Object {
      $line = ("$_" -replace "`0", '').TrimEnd()
      if ($line -match '^\[(\d+)/(\d+)\] (.*)$') {
        $percent = [int](100 * ([int]$Matches[1] - 1) / [int]$Matches[2])
        Write-Progress -Activity 'OpenAI4S: installing in WSL' -Status $Matches[3] -PercentComplete $percent
      }
      Write-Host $line
    }
    $code = $LASTEXITCODE
  } finally {
    $ErrorActionPreference = $previous
    Write-Progress -Activity 'OpenAI4S: installing in WSL' -Completed
  }
  return $code
}

function Test-Wsl {
  if (-not (Get-Command wsl.exe -ErrorAction SilentlyContinue)) { return $false }
  return (Invoke-WslText @('--status')).Code -eq 0
}

$WslMissing = 'WSL2 is not installed. Open PowerShell as administrator, run:  wsl --install  then restart Windows and start OpenAI4S again. (Windows 10 2004 or later, or Windows 11.)'

# The distributions: name, WSL version, whether it is the default.
function Get-DistroList {
  $result = Invoke-WslText @('--list', '--verbose')
  $distros = @()
  foreach ($line in $result.Lines | Select-Object -Skip 1) {
    if ($line -match '^\s*(\*)?\s*(\S+)\s+(\S+)\s+(\d)\s*$') {
      $distros += [pscustomobject]@{ Name = $Matches[2]; State = $Matches[3]; Version = [int]$Matches[4]; Default = [bool]$Matches[1] }
    }
  }
  return $distros
}

function Select-Distro([string] $Wanted, $State) {
  $distros = @(Get-DistroList)
  $name = if ($Wanted) { $Wanted } elseif ($State.distro) { $State.distro } else { $null }
  if ($name) {
    $found = $distros | Where-Object { $_.Name -eq $name }
    if (-not $found) { Exit-WithMessage "there is no WSL distribution named $name (wsl --list --verbose shows them)" 2 }
  } else {
    $candidates = @($distros | Where-Object { $_.Name -match '^(Debian|Ubuntu)' } | Sort-Object -Property @{ Expression = { -not $_.Default } }, Name)
    if ($candidates.Count -gt 0) {
      $found = $candidates[0]
    } else {
      Write-Host 'Installing Debian in WSL2 (one time). A window asks for a Linux user name and password:'
      Write-Host 'choose any; the password is for administrator (sudo) tasks inside Linux.'
      & wsl.exe --install -d Debian
      if ($LASTEXITCODE -ne 0) { Exit-WithMessage 'wsl --install -d Debian failed; run it yourself in PowerShell, then start OpenAI4S again' }
      $found = Get-DistroList | Where-Object { $_.Name -eq 'Debian' }
      if (-not $found) { Exit-WithMessage 'Debian is being set up; finish its first start (user name and password), then start OpenAI4S again' }
    }
  }
  if ($found.Version -ne 2) { Exit-WithMessage "$($found.Name) runs on WSL 1, the app needs WSL 2: run  wsl --set-version $($found.Name) 2" }
  return $found.Name
}

function Read-Release {
  $file = Join-Path $Here 'release.json'
  if (-not (Test-Path $file)) { Exit-WithMessage "release.json is missing next to the launcher ($Here); unpack the whole zip" }
  return Get-Content $file -Raw | ConvertFrom-Json
}

# The Linux build: next to the launcher, checked against release.json's sha256.
function Get-Bundle($Release) {
  $bundle = Join-Path $Here $Release.bundle
  if (-not (Test-Path $bundle)) { Exit-WithMessage "$($Release.bundle) is missing next to the launcher ($Here); unpack the whole zip" }
  $hash = (Get-FileHash -Algorithm SHA256 -Path $bundle).Hash.ToLowerInvariant()
  if ($hash -ne $Release.sha256) { Exit-WithMessage "$($Release.bundle) is damaged (sha256 $hash, expected $($Release.sha256)); download the launcher zip again" }
  return $bundle
}

function Show-Diagnosis($State, [string] $Wanted) {
  Write-Host 'OpenAI4S launcher diagnosis'
  $os = Get-CimInstance Win32_OperatingSystem -ErrorAction SilentlyContinue
  Write-Host ("windows: " + $(if ($os) { "$($os.Caption) $($os.Version)" } else { [Environment]::OSVersion.VersionString }))
  $release = if (Test-Path (Join-Path $Here 'release.json')) { Read-Release } else { $null }
  Write-Host ("launcher: " + $(if ($release) { "OpenAI4S $($release.version), bundle $($release.bundle)" } else { 'no release.json next to it' }))
  Write-Host ("state: $StateFile " + $(if (Test-Path $StateFile) { (Get-Content $StateFile -Raw) -replace '\s+', ' ' } else { '(none)' }))
  if (-not (Get-Command wsl.exe -ErrorAction SilentlyContinue)) {
    Write-Host "wsl: not found. $WslMissing"
    return
  }
  $version = Invoke-WslText @('--version')
  Write-Host ("wsl --version: " + $(if ($version.Code -eq 0) { ($version.Lines -join '; ') } else { 'not supported (an old inbox WSL: run wsl --update)' }))
  $status = Invoke-WslText @('--status')
  Write-Host ("wsl --status: exit $($status.Code); " + ($status.Lines -join '; '))
  $distros = @(Get-DistroList)
  if ($distros.Count -eq 0) { Write-Host 'distributions: none (the launcher installs Debian on first start)'; return }
  foreach ($d in $distros) { Write-Host ("distribution: $($d.Name), WSL $($d.Version), $($d.State)" + $(if ($d.Default) { ', default' } else { '' })) }
  $name = if ($Wanted) { $Wanted } elseif ($State.distro) { $State.distro } else { ($distros | Where-Object { $_.Name -match '^(Debian|Ubuntu)' } | Select-Object -First 1).Name }
  if (-not $name) { Write-Host 'chosen: none (no Debian or Ubuntu distribution)'; return }
  Write-Host "chosen: $name"
  Invoke-InstallScript $name @('--diagnose') | Out-Null
}

$options = Read-LauncherOption $Arguments
if ($options.Mode -eq 'help') { Get-Help $MyInvocation.MyCommand.Path -Detailed; exit 0 }
$state = Read-State

if ($options.Mode -eq 'diagnose') { Show-Diagnosis $state $options.Distro; exit 0 }
if (-not (Test-Wsl)) { Exit-WithMessage $WslMissing }
$distro = Select-Distro $options.Distro $state

if ($options.Mode -eq 'uninstall') {
  $code = Invoke-InstallScript $distro @('--uninstall')
  if ($code -ne 0) { Exit-WithMessage "the uninstall in $distro failed (exit $code)" $code }
  Remove-Item -Force -ErrorAction SilentlyContinue $StateFile
  Write-Host "The distribution $distro stays. To remove it and everything in it: wsl --unregister $distro"
  exit 0
}

$release = Read-Release
if ($state.distro -ne $distro -or $state.version -ne $release.version) {
  Get-Bundle $release | Out-Null
  # apt as root (wsl -u root asks no password), then the app as the user.
  $code = Invoke-InstallScript $distro @('--packages-only') -AsRoot
  if ($code -ne 0) { Exit-WithMessage "installing the system packages in $distro failed (exit $code); OpenAI4S.cmd --diagnose says more" $code }
  $code = Invoke-InstallScript $distro @('--source', "./$($release.bundle)", '--version', $release.version, '--no-packages')
  if ($code -ne 0) { Exit-WithMessage "installing OpenAI4S $($release.version) in $distro failed (exit $code); OpenAI4S.cmd --diagnose says more" $code }
  Save-State ([pscustomobject]@{ distro = $distro; version = $release.version })
}

# WSLg shows the window; the app lives as long as its Linux process.
Write-Host "Starting OpenAI4S $($release.version) in $distro ..."
Start-Process -FilePath 'wsl.exe' -ArgumentList @('-d', $distro, '--cd', '~', '--', './.local/bin/openai4s-desktop') -WindowStyle Hidden
exit 0
