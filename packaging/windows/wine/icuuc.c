/* Wine 8 stand-in for Windows' icuuc.dll (Windows 10 1703 and later ship it; Wine 8 does not).
 *
 * Qt 6 Core imports twenty ucnv_* functions from it, for text encodings other than the Unicode ones and Latin-1,
 * which Qt converts itself. This stand-in knows no converter: ucnv_open fails as ICU does for an unknown name, so
 * Qt reports such an encoding as unavailable. StudyJobs reads and writes UTF-8 only. Put into the system folder of
 * the Wine prefix that builds and tests the Windows installer (packaging/windows/wine_prefix.sh); never shipped.
 */
#include <stddef.h>
#include <stdint.h>

typedef int UErrorCode;
typedef uint16_t UChar;
#define U_FILE_ACCESS_ERROR 4
#define U_UNSUPPORTED_ERROR 16
#define EXPORT __declspec(dllexport)

static int failed(UErrorCode *err) { return err == NULL || *err > 0; }
static void fail(UErrorCode *err, UErrorCode code) { if (!failed(err)) *err = code; }

EXPORT void *ucnv_open(const char *name, UErrorCode *err) { (void)name; fail(err, U_FILE_ACCESS_ERROR); return NULL; }
EXPORT void ucnv_close(void *cnv) { (void)cnv; }
EXPORT void ucnv_reset(void *cnv) { (void)cnv; }
EXPORT int8_t ucnv_getMaxCharSize(const void *cnv) { (void)cnv; return 1; }
EXPORT const char *ucnv_getName(const void *cnv, UErrorCode *err) { (void)cnv; fail(err, U_UNSUPPORTED_ERROR); return NULL; }
EXPORT int32_t ucnv_countAvailable(void) { return 0; }
EXPORT const char *ucnv_getAvailableName(int32_t n) { (void)n; return NULL; }
EXPORT const char *ucnv_getStandardName(const char *name, const char *standard, UErrorCode *err) {
    (void)name; (void)standard; (void)err; return NULL;
}
EXPORT void ucnv_getToUCallBack(const void *cnv, void **action, const void **context) {
    (void)cnv; if (action) *action = NULL; if (context) *context = NULL;
}
EXPORT void ucnv_getFromUCallBack(const void *cnv, void **action, const void **context) {
    (void)cnv; if (action) *action = NULL; if (context) *context = NULL;
}
EXPORT void ucnv_setToUCallBack(void *cnv, void *action, const void *context, void **old_action,
                                const void **old_context, UErrorCode *err) {
    (void)cnv; (void)action; (void)context; (void)old_action; (void)old_context; fail(err, U_UNSUPPORTED_ERROR);
}
EXPORT void ucnv_setFromUCallBack(void *cnv, void *action, const void *context, void **old_action,
                                  const void **old_context, UErrorCode *err) {
    (void)cnv; (void)action; (void)context; (void)old_action; (void)old_context; fail(err, U_UNSUPPORTED_ERROR);
}
EXPORT void ucnv_toUnicode(void *cnv, UChar **target, const UChar *target_limit, const char **source,
                           const char *source_limit, int32_t *offsets, int8_t flush, UErrorCode *err) {
    (void)cnv; (void)target; (void)target_limit; (void)source; (void)source_limit; (void)offsets; (void)flush;
    fail(err, U_UNSUPPORTED_ERROR);
}
EXPORT void ucnv_fromUnicode(void *cnv, char **target, const char *target_limit, const UChar **source,
                             const UChar *source_limit, int32_t *offsets, int8_t flush, UErrorCode *err) {
    (void)cnv; (void)target; (void)target_limit; (void)source; (void)source_limit; (void)offsets; (void)flush;
    fail(err, U_UNSUPPORTED_ERROR);
}
EXPORT int32_t ucnv_toUCountPending(const void *cnv, UErrorCode *err) { (void)cnv; (void)err; return 0; }
EXPORT int32_t ucnv_fromUCountPending(const void *cnv, UErrorCode *err) { (void)cnv; (void)err; return 0; }
EXPORT void ucnv_cbToUWriteUChars(void *args, const UChar *source, int32_t length, int32_t offset_index,
                                  UErrorCode *err) {
    (void)args; (void)source; (void)length; (void)offset_index; fail(err, U_UNSUPPORTED_ERROR);
}
EXPORT void ucnv_cbFromUWriteUChars(void *args, const UChar **source, const UChar *source_limit,
                                    int32_t offset_index, UErrorCode *err) {
    (void)args; (void)source; (void)source_limit; (void)offset_index; fail(err, U_UNSUPPORTED_ERROR);
}
EXPORT void UCNV_FROM_U_CALLBACK_SUBSTITUTE(const void *context, void *args, const UChar *code_units,
                                            int32_t length, int32_t code_point, int reason, UErrorCode *err) {
    (void)context; (void)args; (void)code_units; (void)length; (void)code_point; (void)reason; (void)err;
}
EXPORT void UCNV_TO_U_CALLBACK_SUBSTITUTE(const void *context, void *args, const char *code_units, int32_t length,
                                          int reason, UErrorCode *err) {
    (void)context; (void)args; (void)code_units; (void)length; (void)reason; (void)err;
}
