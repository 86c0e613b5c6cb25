/* Wine 8 stand-in for Windows' bcryptprimitives.dll (Windows 10 has it; Wine 8 does not).
 *
 * Rust's standard library (pydantic-core is written in Rust) imports ProcessPrng from it for random bytes. Here it
 * is Windows' RtlGenRandom (advapi32's SystemFunction036), which Wine implements with the kernel's random source.
 * Put into the system folder of the Wine prefix that builds and tests the Windows installer; never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
