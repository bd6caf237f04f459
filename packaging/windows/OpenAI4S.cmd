@echo off
rem OpenAI4S for Windows: runs the Linux build of the app in WSL2 (see OpenAI4S.ps1).
rem   OpenAI4S.cmd [--diagnose or --uninstall] [--distro NAME]
powershell.exe -NoLogo -NoProfile -ExecutionPolicy Bypass -File "%~dp0OpenAI4S.ps1" %*
set "code=%ERRORLEVEL%"
rem Started by a double-click (no arguments): keep the window open to show what failed.
if not "%code%"=="0" if "%~1"=="" pause
exit /b %code%
