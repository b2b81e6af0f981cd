// libFuzzer's driver, from the fuzzer runtime that -sanitize=fuzzer links (compiler-rt, FuzzerInterface.h).
// SwiftPM gives an executable target its own main (renamed, then aliased with --defsym), so libFuzzer's main is
// never linked; wopikit-fuzz's main calls this driver instead.
#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
