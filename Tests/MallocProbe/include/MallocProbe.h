#ifndef MALLOC_PROBE_H
#define MALLOC_PROBE_H
#include <stddef.h>

/// The bytes the allocator has handed out and not had back (heap and mmapped chunks); 0 where
/// the platform does not say.
size_t malloc_probe_bytes_in_use(void);

/// Whether this build runs under a sanitizer, whose allocator and pace make a measurement of bytes
/// in use meaningless.
int malloc_probe_is_sanitized(void);

#endif
