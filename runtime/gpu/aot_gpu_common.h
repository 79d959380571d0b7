/*===- aot_gpu_common.h - Shared by the CUDA and HIP runtimes ---*- C -*-===*
 *
 * Private to runtime/: the module-cache protocol and small helpers that
 * aot_cuda.c and aot_hip.c share. Everything here is `static inline`, so each
 * back end gets its own internal copy and the two static libraries
 * (aot_runtime_cuda, aot_runtime_hip) define no common symbol: a program may
 * link both, in any order, even with --whole-archive.
 *
 * The cache protocol (see aot_gpu_module_cache_t in aot_runtime_gpu.h):
 * slots [0, count) are immutable once published. A writer, holding the back
 * end's mutex, fills slot `count` with plain stores and then publishes it
 * with a release store of count + 1; a reader acquire-loads `count` and may
 * then read slots below it without synchronisation. The __atomic builtins
 * (GCC and Clang) operate on the plain fields of the public C99 struct.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AOT_RUNTIME_GPU_AOT_GPU_COMMON_H
#define AOT_RUNTIME_GPU_AOT_GPU_COMMON_H

#include "aot_abi/aot_runtime_gpu.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/** Size of the per-thread and remembered error texts (truncated to fit). */
#define AOT_GPU_ERROR_TEXT_BYTES 320

/** Loads `image` into the current context/device and fills its
 *  `num_globals` `globals` (aot_gpu_global_init_t; `globals` may be NULL
 *  when there are none); returns AOT_OK and the module, or a status (the
 *  callback records the driver error itself, and unloads a module it loaded
 *  before failing, so a failure leaves nothing behind). */
typedef aot_status_t (*aot_gpu_load_module_fn)(
    const void *image, const aot_gpu_global_init_t *globals,
    uint32_t num_globals, void **module);

/** Non-zero if `globals` can be handed to aot_gpu_cache_get: NULL only
 *  with `num_globals` 0, every entry with a name, and with data unless its
 *  `bytes` is 0. Checked before any driver call. */
static inline int aot_gpu_globals_valid(const aot_gpu_global_init_t *globals,
                                        uint32_t num_globals) {
  uint32_t i;
  if (!globals)
    return num_globals == 0;
  for (i = 0; i < num_globals; ++i)
    if (!globals[i].name || (globals[i].bytes && !globals[i].data))
      return 0;
  return 1;
}

/** Lock-free lookup: the module published for `key`, or NULL. */
static inline void *aot_gpu_cache_find(aot_gpu_module_cache_t *cache,
                                       const void *key) {
  uint32_t n = __atomic_load_n(&cache->count, __ATOMIC_ACQUIRE);
  uint32_t i;
  if (n > AOT_GPU_MODULE_CACHE_SLOTS)
    n = AOT_GPU_MODULE_CACHE_SLOTS; /* a corrupted cache: stay in bounds */
  for (i = 0; i < n; ++i)
    if (cache->keys[i] == key)
      return cache->modules[i];
  return NULL;
}

/** The module for `key`, loading it with `load` (which also fills
 *  `globals`) on a miss. Exactly one load per (cache, key) succeeds however
 *  many threads race here: misses serialise on `mutex` and re-check before
 *  loading. A failed load publishes nothing, so a later call tries again; a
 *  hit calls nothing, so the globals are filled once per (cache, key).
 *  Returns AOT_ERROR_INTERNAL when all slots hold other keys. */
static inline aot_status_t
aot_gpu_cache_get(aot_gpu_module_cache_t *cache, pthread_mutex_t *mutex,
                  const void *key, const void *image,
                  const aot_gpu_global_init_t *globals, uint32_t num_globals,
                  aot_gpu_load_module_fn load, void **module) {
  aot_status_t status = AOT_OK;
  uint32_t n;
  *module = aot_gpu_cache_find(cache, key);
  if (*module)
    return AOT_OK;
  pthread_mutex_lock(mutex);
  *module = aot_gpu_cache_find(cache, key);
  if (!*module) {
    n = __atomic_load_n(&cache->count, __ATOMIC_RELAXED);
    if (n >= AOT_GPU_MODULE_CACHE_SLOTS) {
      status = AOT_ERROR_INTERNAL;
    } else {
      status = load(image, globals, num_globals, module);
      if (status == AOT_OK) {
        cache->keys[n] = (void *)(uintptr_t)key;
        cache->modules[n] = *module;
        __atomic_store_n(&cache->count, n + 1, __ATOMIC_RELEASE);
      } else {
        *module = NULL;
      }
    }
  }
  pthread_mutex_unlock(mutex);
  return status;
}

/*===----------------------------------------------------------------------===*/
/* The driver, brought up once per process */
/*===----------------------------------------------------------------------===*/

enum {
  AOT_GPU_DRIVER_UNTRIED = 0,
  AOT_GPU_DRIVER_READY = 1,
  AOT_GPU_DRIVER_FAILED = 2
};

/** A back end's one attempt to bring its driver up. Success or failure is
 *  published with a release store of `state`, so later calls take one
 *  acquire load; a failure is remembered with its text (a machine without a
 *  driver or device costs one load per call, not a dlopen). Written only
 *  with the back end's mutex held. */
typedef struct aot_gpu_driver_once_t {
  int state; /* AOT_GPU_DRIVER_*; atomic */
  aot_status_t failure;
  char failure_text[AOT_GPU_ERROR_TEXT_BYTES];
} aot_gpu_driver_once_t;

/** Records a failure to bring the driver up (mutex held). */
static inline void aot_gpu_driver_failed(aot_gpu_driver_once_t *once,
                                         aot_status_t status,
                                         const char *text) {
  once->failure = status;
  snprintf(once->failure_text, sizeof(once->failure_text), "%s", text);
  __atomic_store_n(&once->state, AOT_GPU_DRIVER_FAILED, __ATOMIC_RELEASE);
}

/** Records that the driver is usable (mutex held). */
static inline void aot_gpu_driver_ready(aot_gpu_driver_once_t *once) {
  __atomic_store_n(&once->state, AOT_GPU_DRIVER_READY, __ATOMIC_RELEASE);
}

/** Forgets the attempt, so the next call tries again (mutex held; the test
 *  seams). */
static inline void aot_gpu_driver_reset(aot_gpu_driver_once_t *once) {
  once->failure = AOT_OK;
  once->failure_text[0] = '\0';
  __atomic_store_n(&once->state, AOT_GPU_DRIVER_UNTRIED, __ATOMIC_RELEASE);
}

/** AOT_OK once the driver is usable. The first caller runs `init` with
 *  `mutex` held (it ends with aot_gpu_driver_ready or _failed); every
 *  caller after a failure gets the remembered status, its text copied to
 *  `error_text` (the thread's last error). */
static inline aot_status_t aot_gpu_driver_ensure(aot_gpu_driver_once_t *once,
                                                 pthread_mutex_t *mutex,
                                                 void (*init)(void),
                                                 char *error_text,
                                                 size_t error_bytes) {
  int state = __atomic_load_n(&once->state, __ATOMIC_ACQUIRE);
  if (state == AOT_GPU_DRIVER_READY)
    return AOT_OK;
  if (state == AOT_GPU_DRIVER_UNTRIED) {
    pthread_mutex_lock(mutex);
    if (__atomic_load_n(&once->state, __ATOMIC_RELAXED) ==
        AOT_GPU_DRIVER_UNTRIED)
      init();
    pthread_mutex_unlock(mutex);
    state = __atomic_load_n(&once->state, __ATOMIC_ACQUIRE);
    if (state == AOT_GPU_DRIVER_READY)
      return AOT_OK;
  }
  snprintf(error_text, error_bytes, "%s", once->failure_text);
  return once->failure;
}

/** Checks a host/device copy's pointers: AOT_ERROR_INVALID_ARGUMENT when
 *  `bytes` is non-zero and either is NULL, with "<function>: NULL pointer"
 *  in `error_text`; AOT_OK otherwise. */
static inline aot_status_t aot_gpu_check_copy(const char *function,
                                              const void *dst, const void *src,
                                              size_t bytes, char *error_text,
                                              size_t error_bytes) {
  if (bytes && (!dst || !src)) {
    snprintf(error_text, error_bytes, "%s: NULL pointer", function);
    return AOT_ERROR_INVALID_ARGUMENT;
  }
  return AOT_OK;
}

/** Writes the error of a global whose size in the module is below the
 *  bytes given for it. */
static inline void aot_gpu_global_size_error(char *error_text,
                                             size_t error_bytes,
                                             const char *get_global,
                                             const char *name, uint64_t size,
                                             uint64_t expected) {
  snprintf(error_text, error_bytes,
           "%s: global \"%s\" has %llu bytes, %llu expected", get_global, name,
           (unsigned long long)size, (unsigned long long)expected);
}

/** Converts a dlsym() result to a function pointer without the ISO C
 *  object-to-function pointer cast (the POSIX-sanctioned idiom). */
#define AOT_GPU_STORE_SYMBOL(field_ptr, sym)                                   \
  memcpy((field_ptr), &(sym), sizeof(sym))

#endif /* AOT_RUNTIME_GPU_AOT_GPU_COMMON_H */
