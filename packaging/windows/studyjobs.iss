; Inno Setup 6 script: installs the StudyJobs onedir bundle for the current user (no administrator rights).
;
;   iscc /DBundleDir=build\bundle\dist\StudyJobs /DAppVersion=0.1.0 packaging\windows\studyjobs.iss
;
; - Installs into %LOCALAPPDATA%\Programs\StudyJobs, adds a Start menu shortcut (and, if ticked, a desktop one).
; - Optional task "Start the StudyJobs worker when I log in": the per-user Run value "StudyJobs Worker", the same
;   value gui/autostart.py writes when the setting is switched in the app.
; - Uninstall stops the worker, removes the Run value (and Task Manager's StartupApproved value) whoever wrote it,
;   and removes the program. Your jobs, documents, study guides and settings (%LOCALAPPDATA%\StudyJobs) stay,
;   unless you answer Yes to "Also delete my jobs and study guides?" (a silent uninstall never deletes them;
;   /PURGE does). Markdown study guides already written to your Documents folder are always kept.
; Built and tested on GitHub's windows runner (.github/workflows/release.yml), not on the machine that wrote it.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#ifndef BundleDir
  #define BundleDir "..\..\build\bundle\dist\StudyJobs"
#endif
#define RunKey "Software\Microsoft\Windows\CurrentVersion\Run"
#define ApprovedKey "Software\Microsoft\Windows\CurrentVersion\Explorer\StartupApproved\Run"

[Setup]
AppId={{5B7F3C1E-2D4A-4E8B-9C61-7A3E5D2F9B04}
AppName=StudyJobs
AppVersion={#AppVersion}
AppPublisher=StudyJobs
DefaultDirName={autopf}\StudyJobs
DefaultGroupName=StudyJobs
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir=..\..\build\installer
OutputBaseFilename=StudyJobs-{#AppVersion}-windows-x64-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes
UninstallDisplayIcon={app}\StudyJobs.exe
UninstallDisplayName=StudyJobs

[Languages]
Name: "en"; MessagesFile: "compiler:Default.isl"
Name: "pt_BR"; MessagesFile: "compiler:Languages\BrazilianPortuguese.isl"

[CustomMessages]
en.AutostartTask=Start the StudyJobs worker when I log in
pt_BR.AutostartTask=Iniciar o processador do StudyJobs quando eu entrar no computador
en.PurgeQuestion=Also delete my jobs and study guides?%n%nThis removes %1 (your job list, documents, study guides and settings). Study guides already saved in your Documents folder are kept.
pt_BR.PurgeQuestion=Apagar também meus trabalhos e guias de estudo?%n%nIsso remove %1 (a lista de trabalhos, documentos, guias de estudo e configurações). Guias já salvos na pasta Documentos são mantidos.

[Tasks]
Name: "autostart"; Description: "{cm:AutostartTask}"; Flags: unchecked
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#BundleDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\StudyJobs"; Filename: "{app}\StudyJobs.exe"
Name: "{autodesktop}\StudyJobs"; Filename: "{app}\StudyJobs.exe"; Tasks: desktopicon

[Registry]
Root: HKCU; Subkey: "{#RunKey}"; ValueType: string; ValueName: "StudyJobs Worker"; ValueData: """{app}\studyjobs-worker.exe"" daemon --autostart --watch"; Tasks: autostart

[Run]
Filename: "{app}\StudyJobs.exe"; Description: "{cm:LaunchProgram,StudyJobs}"; Flags: nowait postinstall skipifsilent

[UninstallRun]
Filename: "{sys}\taskkill.exe"; Parameters: "/F /T /IM studyjobs-worker.exe /FI ""USERNAME eq {username}"""; Flags: runhidden; RunOnceId: "StopWorker"
Filename: "{sys}\taskkill.exe"; Parameters: "/F /T /IM StudyJobs.exe /FI ""USERNAME eq {username}"""; Flags: runhidden; RunOnceId: "StopWindow"

[Code]
function DataFolder(): String;
begin
  { platformdirs.user_data_dir("StudyJobs", "StudyJobs") and its Logs folder live under this one. }
  Result := ExpandConstant('{localappdata}\StudyJobs');
end;

procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
begin
  if CurUninstallStep = usUninstall then
  begin
    { Whoever turned autostart on (this installer or the app's settings), the entry goes with the program. }
    RegDeleteValue(HKEY_CURRENT_USER, '{#RunKey}', 'StudyJobs Worker');
    RegDeleteValue(HKEY_CURRENT_USER, '{#ApprovedKey}', 'StudyJobs Worker');
  end;
  if (CurUninstallStep = usPostUninstall) and DirExists(DataFolder()) then
  begin
    if ExpandConstant('{param:PURGE|0}') = '1' then
      DelTree(DataFolder(), True, True, True)
    else if (not UninstallSilent()) and
        (MsgBox(FmtMessage(CustomMessage('PurgeQuestion'), [DataFolder()]), mbConfirmation,
                MB_YESNO or MB_DEFBUTTON2) = IDYES) then
      DelTree(DataFolder(), True, True, True);
  end;
end;
