// Counts heap allocations for the allocation regression tests (Tests/AllocationTests).
//
// In a plain build the test executable defines malloc, calloc and realloc itself: the dynamic linker binds
// every caller in the process (Swift's runtime, Foundation, SQLite, glibc) to these, which count and then
// call glibc's own allocator. Counting is off unless a test turns it on, so other tests pay one relaxed load.
// Under a sanitizer, which owns malloc, the sanitizer's allocation hook counts instead.
#include "CMallocCounter.h"

#include <stdatomic.h>
#include <stddef.h>

static atomic_long allocations = 0;
static atomic_int counting = 0;

static inline void count_one(void) {
    if (atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    }
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define WOPIKIT_SANITIZED 1
#endif
#endif

#ifdef WOPIKIT_SANITIZED
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                              void (*free_hook)(const volatile void *));

static void on_malloc(const volatile void *pointer, size_t size) {
    (void)pointer;
    (void)size;
    count_one();
}

static void on_free(const volatile void *pointer) { (void)pointer; }

static atomic_int hooked = 0;

void wopikit_malloc_counter_start(void) {
    if (!atomic_exchange(&hooked, 1)) __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
    atomic_store(&allocations, 0);
    atomic_store(&counting, 1);
}
#else
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_one();
    return __libc_realloc(pointer, size);
}

void wopikit_malloc_counter_start(void) {
    atomic_store(&allocations, 0);
    atomic_store(&counting, 1);
}
#endif

long wopikit_malloc_counter_stop(void) {
    atomic_store(&counting, 0);
    return atomic_load(&allocations);
}
