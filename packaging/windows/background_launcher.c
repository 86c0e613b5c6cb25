/* studyjobs-background.exe: what the login entry (the Run value) runs on Windows.
 *
 *   studyjobs-background.exe daemon --autostart --watch
 *
 * starts studyjobs-worker.exe (next to this file) with the same arguments, without any console window. The worker is
 * a console program (its command line prints to the console); started at login it would open a console window.
 * This program is a windowed one (-mwindows: Windows gives it no console) and starts the worker attached to a pseudo
 * console (ConPTY, Windows 10 1809 and later) whose output it reads and drops: the worker and every console program
 * it starts (the watchdog's worker, helper processes) share that console, and no window shows it. Windows Terminal,
 * the default terminal of Windows 11, never sees it either (a hidden classic console would be handed to Terminal and
 * shown). The worker writes its rotating log as always (%LOCALAPPDATA%\StudyJobs\...\daemon.log).
 *
 * Without ConPTY (older Windows) the worker is started with CREATE_NO_WINDOW and its standard streams on NUL.
 * Waits for the worker and exits with its exit code, so whoever started this program sees the worker's lifetime.
 */
#include <windows.h>
#include <wchar.h>

#ifndef PROC_THREAD_ATTRIBUTE_PSEUDOCONSOLE
#define PROC_THREAD_ATTRIBUTE_PSEUDOCONSOLE 0x00020016
#endif
typedef VOID *PseudoConsole;
typedef HRESULT(WINAPI *CreatePseudoConsoleFn)(COORD, HANDLE, HANDLE, DWORD, PseudoConsole *);
typedef VOID(WINAPI *ClosePseudoConsoleFn)(PseudoConsole);

static DWORD WINAPI drain(LPVOID pipe) {
    char buffer[4096];
    DWORD got;
    while (ReadFile((HANDLE)pipe, buffer, sizeof buffer, &got, NULL) && got > 0) {
    }
    return 0;
}

/* "<folder of this exe>\studyjobs-worker.exe" <the arguments this program got>, in a new buffer. */
static wchar_t *worker_command_line(void) {
    static wchar_t exe[MAX_PATH];
    DWORD n = GetModuleFileNameW(NULL, exe, MAX_PATH);
    if (n == 0 || n >= MAX_PATH) return NULL;
    wchar_t *slash = wcsrchr(exe, L'\\');
    if (slash == NULL) return NULL;
    wcscpy(slash + 1, L"studyjobs-worker.exe");
    /* The arguments: the command line after this program's own (possibly quoted) name. */
    const wchar_t *args = GetCommandLineW();
    if (*args == L'"') {
        args = wcschr(args + 1, L'"');
        args = args ? args + 1 : L"";
    } else {
        while (*args && *args != L' ' && *args != L'\t') args++;
    }
    size_t size = wcslen(exe) + wcslen(args) + 4;
    wchar_t *line = HeapAlloc(GetProcessHeap(), 0, size * sizeof(wchar_t));
    if (line == NULL) return NULL;
    wcscpy(line, L"\"");
    wcscat(line, exe);
    wcscat(line, L"\"");
    wcscat(line, args);
    return line;
}

/* Start the worker in a pseudo console; FALSE when ConPTY is missing or fails. */
static BOOL start_in_pseudo_console(wchar_t *line, PROCESS_INFORMATION *process, PseudoConsole *console) {
    HMODULE kernel = GetModuleHandleW(L"kernel32.dll");
    CreatePseudoConsoleFn create = (CreatePseudoConsoleFn)(void *)GetProcAddress(kernel, "CreatePseudoConsole");
    if (create == NULL) return FALSE;
    HANDLE in_read, in_write, out_read, out_write;
    if (!CreatePipe(&in_read, &in_write, NULL, 0)) return FALSE;
    if (!CreatePipe(&out_read, &out_write, NULL, 0)) return FALSE;
    COORD size = {120, 40};
    if (FAILED(create(size, in_read, out_write, 0, console))) return FALSE;
    CloseHandle(in_read);
    CloseHandle(out_write);
    HANDLE reader = CreateThread(NULL, 0, drain, out_read, 0, NULL);
    if (reader) CloseHandle(reader);

    STARTUPINFOEXW info;
    ZeroMemory(&info, sizeof info);
    info.StartupInfo.cb = sizeof info;
    SIZE_T bytes = 0;
    InitializeProcThreadAttributeList(NULL, 1, 0, &bytes);
    info.lpAttributeList = HeapAlloc(GetProcessHeap(), 0, bytes);
    if (info.lpAttributeList == NULL || !InitializeProcThreadAttributeList(info.lpAttributeList, 1, 0, &bytes))
        return FALSE;
    if (!UpdateProcThreadAttribute(info.lpAttributeList, 0, PROC_THREAD_ATTRIBUTE_PSEUDOCONSOLE, *console,
                                   sizeof(*console), NULL, NULL))
        return FALSE;
    return CreateProcessW(NULL, line, NULL, NULL, FALSE, EXTENDED_STARTUPINFO_PRESENT, NULL, NULL,
                          &info.StartupInfo, process);
}

/* Start the worker without a console, its standard streams on NUL. */
static BOOL start_without_console(wchar_t *line, PROCESS_INFORMATION *process) {
    SECURITY_ATTRIBUTES inherit = {sizeof inherit, NULL, TRUE};
    HANDLE nul = CreateFileW(L"NUL", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit,
                             OPEN_EXISTING, 0, NULL);
    STARTUPINFOW info;
    ZeroMemory(&info, sizeof info);
    info.cb = sizeof info;
    info.dwFlags = STARTF_USESTDHANDLES;
    info.hStdInput = info.hStdOutput = info.hStdError = nul;
    return CreateProcessW(NULL, line, NULL, NULL, TRUE, CREATE_NO_WINDOW, NULL, NULL, &info, process);
}

int WINAPI wWinMain(HINSTANCE instance, HINSTANCE previous, PWSTR arguments, int show) {
    (void)instance, (void)previous, (void)arguments, (void)show;
    wchar_t *line = worker_command_line();
    if (line == NULL) return 2;
    PROCESS_INFORMATION process;
    PseudoConsole console = NULL;
    if (!start_in_pseudo_console(line, &process, &console) && !start_without_console(line, &process)) return 3;
    CloseHandle(process.hThread);
    WaitForSingleObject(process.hProcess, INFINITE);
    DWORD code = 1;
    GetExitCodeProcess(process.hProcess, &code);
    ClosePseudoConsoleFn close = (ClosePseudoConsoleFn)(void *)GetProcAddress(GetModuleHandleW(L"kernel32.dll"),
                                                                                "ClosePseudoConsole");
    if (console != NULL && close != NULL) close(console);
    return (int)code;
}
