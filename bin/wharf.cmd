@echo off
rem wharf.cmd - runs the Wharf server jar on Windows: wharf standalone | namesrv | broker | admin ... (--help lists all)
rem The servers run in the foreground (Ctrl-C stops them); stop/status and the JVM defaults of bin/wharf are Unix-only.
rem WHARF_HOME (default: the folder above this script), JAVA_HOME, JAVA_OPTS and WHARF_JAR are honoured.
setlocal
if "%WHARF_HOME%"=="" set "WHARF_HOME=%~dp0.."
if "%WHARF_JAR%"=="" set "WHARF_JAR=%WHARF_HOME%\lib\wharf-server.jar"
if not exist "%WHARF_JAR%" (
  echo wharf: cannot find %WHARF_JAR%; set WHARF_HOME to the unpacked Wharf archive or WHARF_JAR to the jar 1>&2
  exit /b 1
)
if "%JAVA_HOME%"=="" (set "JAVA=java") else (set "JAVA=%JAVA_HOME%\bin\java")
set "LOGBACK="
if exist "%WHARF_HOME%\conf\logback.xml" if /i not "%~1"=="admin" (
  set "LOGBACK=-Dlogback.configurationFile=%WHARF_HOME%\conf\logback.xml -Dwharf.log.dir=%WHARF_HOME%\logs -Dwharf.log.name=%~1"
)
"%JAVA%" %LOGBACK% %JAVA_OPTS% -jar "%WHARF_JAR%" %*
exit /b %ERRORLEVEL%
