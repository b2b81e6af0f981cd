#ifndef WOPIKIT_MALLOC_COUNTER_H
#define WOPIKIT_MALLOC_COUNTER_H

/// Starts counting the heap allocations (malloc, calloc, realloc) of every thread of the process, from zero.
void wopikit_malloc_counter_start(void);

/// Stops counting and returns the allocations since the start, or -1 when this build cannot count.
long wopikit_malloc_counter_stop(void);

#endif
