/* stop-studyjobs.exe: ends every process of this user that runs a program from one install folder
 * (but itself and the process that started it).
 *
 *   stop-studyjobs.exe "<install folder>"
 *
 * The installer runs it before it replaces the program's files, and the uninstaller before it removes them: a worker
 * started at login (its launcher, its watchdog, the worker, its reader processes) and an open window keep their files
 * in use, and Windows refuses to replace or delete a file in use. Processes are found by the full path of their
 * program (any program inside the folder, whatever its name), not by name: another copy of StudyJobs installed
 * elsewhere is left alone, and no process is missed because a name list is out of date. `taskkill` cannot do this
 * (Wine's rejects /T, and /F /IM ends only the first process of a name).
 *
 * Repeats until a pass finds nothing, because the watchdog may start a new worker between two passes, waiting for each
 * ended process to be gone (its files closed). Exit code: 0 when no process of the folder runs any more, 1 when some
 * still runs after the last pass (the installer then goes on: Windows itself reports the file it cannot replace),
 * 2 for a wrong command line.
 */
#include <windows.h>
#include <tlhelp32.h>
#include <wchar.h>

#define PASSES 20
#define WAIT_MS 10000

/* The folder as a full path ending in one backslash, in `folder` (MAX_PATH + 2 wide characters); FALSE if too long. */
static BOOL folder_prefix(const wchar_t *given, wchar_t *folder) {
    DWORD n = GetFullPathNameW(given, MAX_PATH, folder, NULL);
    if (n == 0 || n >= MAX_PATH) return FALSE;
    while (n > 0 && (folder[n - 1] == L'\\' || folder[n - 1] == L'/')) folder[--n] = L'\0';
    if (n < 3) return FALSE; /* never a drive's root: it would match every program on it */
    folder[n] = L'\\';
    folder[n + 1] = L'\0';
    return TRUE;
}

/* TRUE when the process runs a program whose full path starts with `folder` (compared without case). */
static BOOL runs_from(HANDLE process, const wchar_t *folder) {
    wchar_t image[MAX_PATH * 2];
    DWORD size = MAX_PATH * 2;
    if (!QueryFullProcessImageNameW(process, 0, image, &size)) return FALSE;
    size_t length = wcslen(folder);
    return size > length && CompareStringOrdinal(image, (int)length, folder, (int)length, TRUE) == CSTR_EQUAL;
}

/* The process that started this one (an uninstaller run in place, from the folder itself), or 0. */
static DWORD parent_id(void) {
    HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    if (snapshot == INVALID_HANDLE_VALUE) return 0;
    PROCESSENTRY32W entry;
    entry.dwSize = sizeof entry;
    DWORD self = GetCurrentProcessId(), parent = 0;
    for (BOOL more = Process32FirstW(snapshot, &entry); more; more = Process32NextW(snapshot, &entry)) {
        if (entry.th32ProcessID == self) parent = entry.th32ParentProcessID;
    }
    CloseHandle(snapshot);
    return parent;
}

/* Ends every process of the folder but this one and its parent; returns how many it found, each waited for until
 * gone (at most WAIT_MS). */
static int end_pass(const wchar_t *folder, DWORD parent) {
    HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    if (snapshot == INVALID_HANDLE_VALUE) return 0;
    HANDLE ended[MAXIMUM_WAIT_OBJECTS];
    int found = 0, waiting = 0;
    PROCESSENTRY32W entry;
    entry.dwSize = sizeof entry;
    DWORD self = GetCurrentProcessId();
    for (BOOL more = Process32FirstW(snapshot, &entry); more; more = Process32NextW(snapshot, &entry)) {
        DWORD id = entry.th32ProcessID;
        if (id == self || id == parent || id == 0) continue;
        DWORD access = PROCESS_QUERY_LIMITED_INFORMATION | PROCESS_TERMINATE | SYNCHRONIZE;
        HANDLE process = OpenProcess(access, FALSE, entry.th32ProcessID);
        if (process == NULL) continue;
        if (runs_from(process, folder) && TerminateProcess(process, 1)) {
            found++;
            if (waiting < MAXIMUM_WAIT_OBJECTS) {
                ended[waiting++] = process;
                continue;
            }
        }
        CloseHandle(process);
    }
    CloseHandle(snapshot);
    if (waiting > 0) WaitForMultipleObjects((DWORD)waiting, ended, TRUE, WAIT_MS);
    for (int i = 0; i < waiting; i++) CloseHandle(ended[i]);
    return found;
}

int wmain(int argc, wchar_t **argv) {
    wchar_t folder[MAX_PATH + 2];
    if (argc != 2 || !folder_prefix(argv[1], folder)) return 2;
    DWORD parent = parent_id();
    for (int pass = 0; pass < PASSES; pass++) {
        if (end_pass(folder, parent) == 0) return 0;
    }
    return 1;
}
