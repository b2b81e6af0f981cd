// The header declares a function of the fuzzer runtime; this file only makes CLibFuzzer a C target.
