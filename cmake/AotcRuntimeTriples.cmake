#===- cmake/AotcRuntimeTriples.cmake - The runtime for other targets -----===#
#
# Objects aotc writes for another CPU (--mtriple) link a runtime built for
# that CPU. For each LLVM triple of AOTC_RUNTIME_TRIPLES (Linux triples,
# e.g. "aarch64-linux-gnu"), runtime/ is built once more as a project of
# its own, by clang targeting that triple (its C library headers found the
# way clang finds them: Debian's libc6-dev-arm64-cross for aarch64):
#
#   build/runtime-<triple>/libaot_runtime{,_cuda,_hip}.a
#
# and installed into <prefix>/lib/aotc/<triple>/. tests/cross links the
# aarch64 one.
#
#===----------------------------------------------------------------------===#
set(AOTC_RUNTIME_TRIPLES "" CACHE STRING
    "Linux triples (e.g. aarch64-linux-gnu) the runtime is also built for")
if(NOT AOTC_RUNTIME_TRIPLES)
  return()
endif()

include(ExternalProject)
find_program(AOTC_TRIPLE_CC clang PATHS "${LLVM_TOOLS_BINARY_DIR}"
             NO_DEFAULT_PATH REQUIRED)
find_program(AOTC_TRIPLE_AR llvm-ar PATHS "${LLVM_TOOLS_BINARY_DIR}"
             NO_DEFAULT_PATH REQUIRED)
set(AOTC_RUNTIME_ARCHIVES aot_runtime aot_runtime_cuda aot_runtime_hip)

foreach(triple IN LISTS AOTC_RUNTIME_TRIPLES)
  if(NOT triple MATCHES "^([a-z0-9_]+)-.*linux")
    message(FATAL_ERROR "AOTC_RUNTIME_TRIPLES: '${triple}' is not a Linux "
                        "triple (such as aarch64-linux-gnu)")
  endif()
  set(dir "${PROJECT_BINARY_DIR}/runtime-${triple}")
  set(archives)
  foreach(name IN LISTS AOTC_RUNTIME_ARCHIVES)
    list(APPEND archives "${dir}/lib${name}.a")
  endforeach()
  ExternalProject_Add(aot_runtime-${triple}
    SOURCE_DIR "${PROJECT_SOURCE_DIR}/runtime"
    BINARY_DIR "${dir}"
    CMAKE_ARGS
      -DCMAKE_BUILD_TYPE=Release
      -DCMAKE_SYSTEM_NAME=Linux
      -DCMAKE_SYSTEM_PROCESSOR=${CMAKE_MATCH_1}
      -DCMAKE_C_COMPILER=${AOTC_TRIPLE_CC}
      -DCMAKE_C_COMPILER_TARGET=${triple}
      -DCMAKE_AR=${AOTC_TRIPLE_AR}
      # No linker or libraries for the target are needed: archives only.
      -DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY
    # Rebuilt with the host runtime when its sources change.
    BUILD_ALWAYS ON
    BUILD_BYPRODUCTS ${archives}
    INSTALL_COMMAND "")
  install(FILES ${archives}
          DESTINATION "${CMAKE_INSTALL_LIBDIR}/aotc/${triple}")
endforeach()
