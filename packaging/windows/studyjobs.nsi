; NSIS 3 script: the StudyJobs installer for Windows x64, per user (no administrator rights).
;
;   makensis -DVERSION=0.1.0 -DBUNDLE_DIR=build/windows/dist/StudyJobs -DSTOP_EXE=build/windows/stop-studyjobs.exe -DOUTFILE=build/windows/StudyJobs-0.1.0-windows-x64-setup.exe \
;       packaging/windows/studyjobs.nsi           (packaging/windows/build.sh does this; makensis runs on Linux)
;
; - Installs into %LOCALAPPDATA%\Programs\StudyJobs, with a Start menu entry and an uninstaller listed in
;   Settings > Apps (HKCU\...\Uninstall\StudyJobs). English or Brazilian Portuguese, from Windows' language.
; - "Start the StudyJobs worker when I log in" (on by default): the per-user Run value "StudyJobs Worker", the same
;   value gui/worker/autostart.py writes when the setting is switched in the app. It runs studyjobs-background.exe, a
;   windowed launcher (background_launcher.c) that starts the console worker without a console window.
; - Silent install: /S, with /AUTOSTART=0 to leave the login entry out and /D=<folder> (last) for another folder.
; - The uninstaller stops the worker and the window, removes the Run value and Task Manager's StartupApproved value
;   (whoever wrote them), the Start menu entry and the program. The user's jobs, documents, study guides and
;   settings (%LOCALAPPDATA%\StudyJobs) stay, unless the user answers Yes to "Also delete ..." or passes /PURGE=1.
;   Study guides written to the Documents folder are always kept. Silent: uninstall.exe /S [_?=<folder>].

Unicode true
Target amd64-unicode
ManifestDPIAware true
RequestExecutionLevel user
; zlib: the installer is about a fifth larger than with lzma but is made in seconds instead of minutes on CI's two
; cores (the numbers are in docs/performance.md); the bundled model, a third of the program, hardly compresses anyway.
SetCompressor zlib

!ifndef VERSION
  !error "pass -DVERSION=<version>"
!endif
!ifndef BUNDLE_DIR
  !error "pass -DBUNDLE_DIR=<PyInstaller's dist/StudyJobs folder>"
!endif
!ifndef STOP_EXE
  !error "pass -DSTOP_EXE=<stop-studyjobs.exe, built from stop_studyjobs.c>"
!endif
!ifndef OUTFILE
  !define OUTFILE "StudyJobs-${VERSION}-windows-x64-setup.exe"
!endif

!define APP "StudyJobs"
!define RUN_KEY "Software\Microsoft\Windows\CurrentVersion\Run"
!define APPROVED_KEY "Software\Microsoft\Windows\CurrentVersion\Explorer\StartupApproved\Run"
!define RUN_VALUE "StudyJobs Worker"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\StudyJobs"

!include "MUI2.nsh"
!include "FileFunc.nsh"
!include "LogicLib.nsh"

Name "${APP}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\${APP}"
InstallDirRegKey HKCU "${UNINSTALL_KEY}" "InstallLocation"
BrandingText "${APP} ${VERSION}"
VIProductVersion "${VERSION}.0"
VIAddVersionKey /LANG=1033 "ProductName" "${APP}"
VIAddVersionKey /LANG=1033 "FileDescription" "${APP} installer"
VIAddVersionKey /LANG=1033 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=1033 "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=1033 "LegalCopyright" "MIT License"

!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\${APP}.exe"
!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "PortugueseBR"

LangString SEC_PROGRAM ${LANG_ENGLISH} "StudyJobs (required)"
LangString SEC_PROGRAM ${LANG_PORTUGUESEBR} "StudyJobs (obrigatório)"
LangString SEC_AUTOSTART ${LANG_ENGLISH} "Start the StudyJobs worker when I log in"
LangString SEC_AUTOSTART ${LANG_PORTUGUESEBR} "Iniciar o processador do StudyJobs quando eu entrar no computador"
LangString PURGE_QUESTION ${LANG_ENGLISH} "Also delete my jobs and study guides?$\r$\n$\r$\nThis removes $LOCALAPPDATA\StudyJobs (your job list, documents, study guides and settings). Study guides already saved in your Documents folder are kept."
LangString PURGE_QUESTION ${LANG_PORTUGUESEBR} "Apagar também meus trabalhos e guias de estudo?$\r$\n$\r$\nIsso remove $LOCALAPPDATA\StudyJobs (a lista de trabalhos, documentos, guias de estudo e configurações). Guias já salvos na pasta Documentos são mantidos."

Section "!$(SEC_PROGRAM)" SecProgram
  SectionIn RO
  Call StopStudyJobs
  SetOutPath "$INSTDIR"
  File /r "${BUNDLE_DIR}\*.*"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateShortCut "$SMPROGRAMS\${APP}.lnk" "$INSTDIR\${APP}.exe"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "${APP}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "${APP}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\${APP}.exe"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "EstimatedSize" $0
SectionEnd

Section "$(SEC_AUTOSTART)" SecAutostart
  WriteRegStr HKCU "${RUN_KEY}" "${RUN_VALUE}" '"$INSTDIR\studyjobs-background.exe" daemon --autostart --watch'
  DeleteRegValue HKCU "${APPROVED_KEY}" "${RUN_VALUE}"
SectionEnd

Function .onInit
  !insertmacro MUI_LANGDLL_DISPLAY
  ${GetParameters} $R0
  ClearErrors
  ${GetOptions} $R0 "/AUTOSTART=" $R1
  ${IfNot} ${Errors}
  ${AndIf} $R1 == "0"
    SectionSetFlags ${SecAutostart} 0
  ${EndIf}
FunctionEnd

; Ends every running process of this user's StudyJobs in $INSTDIR (the window; the login worker's launcher, watchdog,
; worker and reader processes), waiting until they are gone, so that their files can be replaced or removed.
; stop-studyjobs.exe (stop_studyjobs.c) travels inside the installer and the uninstaller and runs from $PLUGINSDIR.
!macro STOP_STUDYJOBS
  InitPluginsDir
  SetOutPath "$PLUGINSDIR"
  File "/oname=$PLUGINSDIR\stop-studyjobs.exe" "${STOP_EXE}"
  nsExec::Exec '"$PLUGINSDIR\stop-studyjobs.exe" "$INSTDIR"'
  Pop $0
  SetOutPath "$TEMP"
!macroend
Function StopStudyJobs
  !insertmacro STOP_STUDYJOBS
FunctionEnd
Function un.StopStudyJobs
  !insertmacro STOP_STUDYJOBS
FunctionEnd

Section "Uninstall"
  Call un.StopStudyJobs
  DeleteRegValue HKCU "${RUN_KEY}" "${RUN_VALUE}"
  DeleteRegValue HKCU "${APPROVED_KEY}" "${RUN_VALUE}"
  Delete "$SMPROGRAMS\${APP}.lnk"
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\${APP}.exe"
  Delete "$INSTDIR\studyjobs-worker.exe"
  Delete "$INSTDIR\studyjobs-background.exe"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINSTALL_KEY}"
  ${GetParameters} $R0
  ClearErrors
  ${GetOptions} $R0 "/PURGE=" $R1
  ${IfNot} ${Errors}
  ${AndIf} $R1 == "1"
    RMDir /r "$LOCALAPPDATA\StudyJobs"
  ${ElseIfNot} ${Silent}
  ${AndIf} ${FileExists} "$LOCALAPPDATA\StudyJobs\*.*"
    MessageBox MB_YESNO|MB_ICONQUESTION|MB_DEFBUTTON2 "$(PURGE_QUESTION)" IDNO keep
    RMDir /r "$LOCALAPPDATA\StudyJobs"
    keep:
  ${EndIf}
SectionEnd

Function un.onInit
  !insertmacro MUI_UNGETLANGUAGE
FunctionEnd
