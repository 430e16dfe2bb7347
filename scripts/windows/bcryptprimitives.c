/* A stand-in for Windows' bcryptprimitives.dll, for wine releases that lack it (Debian's
 * wine 8): Rust's standard library (1.78 and later) takes its random bytes from
 * ProcessPrng there, so hookhost.exe cannot even load without it. Real Windows (10 and
 * later) has the DLL; scripts/test-windows builds this one into the test's own wine prefix
 * only when the prefix has none. It answers from advapi32's RtlGenRandom
 * (SystemFunction036), which wine has. */
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk; len -= chunk;
    }
    return TRUE;
}
