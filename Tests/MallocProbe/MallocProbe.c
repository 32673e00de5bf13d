#include "MallocProbe.h"
#if defined(__linux__)
#include <malloc.h>
size_t malloc_probe_bytes_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}
#elif defined(__APPLE__)
#include <malloc/malloc.h>
size_t malloc_probe_bytes_in_use(void) {
  malloc_statistics_t stats;
  malloc_zone_statistics(NULL, &stats);
  return stats.size_in_use;
}
#else
size_t malloc_probe_bytes_in_use(void) { return 0; }
#endif

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define MALLOC_PROBE_SANITIZED 1
#endif
#endif

int malloc_probe_is_sanitized(void) {
#if defined(MALLOC_PROBE_SANITIZED)
  return 1;
#else
  return 0;
#endif
}
