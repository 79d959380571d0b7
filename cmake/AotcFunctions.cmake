#===- AotcFunctions.cmake - aot_add_library() and aot_add_test() ---------===#
#
# CMake functions for building and testing models compiled by aotc.
#
#   aot_add_library(<name> SOURCE <model> [TARGET cpu] [SHARED]
#                   [MODEL_NAME <model-name>] [SANITIZE address|thread]
#                   [FLAGS <aotc flag>...])
#     Runs `aotc <model> --target=<target> --name=<model-name> -o <dir>
#     --emit=obj,header,json <flags>` at build time, with
#     <dir> = ${CMAKE_CURRENT_BINARY_DIR}/aot/<name> and <model-name>
#     defaulting to <name>, and wraps <dir>/<model-name>.o in a STATIC
#     (default) or SHARED library target <name>. (MODEL_NAME lets two targets,
#     e.g. a static and a shared one, export the same entry points.)
#     SANITIZE compiles the code instrumented for AddressSanitizer or
#     ThreadSanitizer (aotc --sanitize) and gives the library's users the
#     link option -fsanitize=<sanitizer> (clang). Linking
#     it gives the include directories of <model-name>.h and of
#     aot_abi/aot_abi.h, the runtime (aot_runtime) and LLVM's OpenMP runtime
#     (aotc::omp); a SHARED library contains the whole runtime instead.
#     Target properties set for other functions and for users:
#       AOT_HEADER, AOT_MANIFEST, AOT_OBJECT (absolute paths),
#       AOT_MODEL_NAME (<model-name>), AOT_OUTPUT_DIR (<dir>), AOT_TARGET,
#       AOT_SANITIZE (empty if none).
#
#   aot_add_test(<name> LIBRARY <lib> REFERENCE <file.npz> [ENTRY <entry>]
#                [RTOL <x>] [ATOL <y>] [CONCURRENCY <iterations>]
#                [THREAD_ROUNDS <rounds>] [LABELS <label>...])
#     Generates (at build time, from <lib>'s manifest, with aot_gen_test.py)
#     a GoogleTest driver for one entry point (default: the only one), builds
#     it as executable <name> and registers it with ctest, labelled `e2e` and
#     <labels>, to run against <file.npz> (input_i / output_i written by
#     numpy.savez). RTOL/ATOL override the per-dtype defaults of
#     aot_test_support/aot_tolerance.h; CONCURRENCY adds a test that calls the
#     entry point <iterations> times from each of 8 threads; THREAD_ROUNDS
#     (default 1) repeats the calls with 3, 5 and 8 OpenMP threads. For a library
#     made with SANITIZE, the driver is built with the same sanitizer and,
#     for ThreadSanitizer, runs with LLVM's OpenMP race annotations (Archer,
#     AOTC_ARCHER_LIBRARY) loaded into libomp.
#
#   Relative SOURCE / REFERENCE paths: the file in
#   ${CMAKE_CURRENT_SOURCE_DIR} if it exists there at configure time, else the
#   one in ${CMAKE_CURRENT_BINARY_DIR} (e.g. written by add_custom_command
#   in the calling directory, which is then run before the test).
#
# Also defines the library `aot_test_support` (npz reader, tolerances) used
# by generated drivers and unit tests, and the imported target `aotc::omp`.
#
# Inputs: a target `aotc` if the compiler is built in the same project, else
# the cache variable AOTC_EXECUTABLE; AOTC_PYTHON (python3 for the generator);
# a target `aot_runtime` (or `Aotc::runtime` from an installed package,
# find_package(Aotc), which also sets AOTC_EXECUTABLE and AOTC_INCLUDE_DIR);
# AOTC_INCLUDE_DIR (default: ../include next to this file).
#
#===----------------------------------------------------------------------===#
include_guard(GLOBAL)

set(_AOTC_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")

if(NOT AOTC_INCLUDE_DIR)
  get_filename_component(AOTC_INCLUDE_DIR "${_AOTC_CMAKE_DIR}/../include"
                         ABSOLUTE)
endif()
set(AOTC_EXECUTABLE "" CACHE FILEPATH
    "aotc compiler used by aot_add_library() when there is no aotc target")
if(NOT AOTC_PYTHON)
  find_program(AOTC_PYTHON NAMES python3 REQUIRED)
endif()

find_package(Threads REQUIRED)

#===----------------------------------------------------------------------===#
# LLVM's OpenMP runtime, which aotc-compiled CPU code calls (__kmpc_*)
#===----------------------------------------------------------------------===#
if(NOT TARGET aotc::omp)
  find_library(AOTC_OMP_LIBRARY NAMES omp
               PATHS /usr/lib/llvm-22/lib NO_DEFAULT_PATH)
  if(NOT AOTC_OMP_LIBRARY)
    find_library(AOTC_OMP_LIBRARY NAMES omp)
  endif()
  if(NOT AOTC_OMP_LIBRARY)
    message(FATAL_ERROR "aotc: LLVM's OpenMP runtime (libomp) not found; "
                        "set AOTC_OMP_LIBRARY")
  endif()
  # GLOBAL: visible from every directory, whichever one included this file.
  add_library(aotc::omp UNKNOWN IMPORTED GLOBAL)
  set_target_properties(aotc::omp PROPERTIES
    IMPORTED_LOCATION "${AOTC_OMP_LIBRARY}")
endif()
# Archer, libomp's ThreadSanitizer annotations: without it, TSan does not see
# the synchronisation of OpenMP barriers and reports races that are none.
if(NOT DEFINED AOTC_ARCHER_LIBRARY)
  get_filename_component(_aotc_omp_dir "${AOTC_OMP_LIBRARY}" DIRECTORY)
  find_library(AOTC_ARCHER_LIBRARY NAMES archer PATHS "${_aotc_omp_dir}"
               NO_DEFAULT_PATH)
endif()
# The environment of a test of ThreadSanitizer-instrumented code: reports in
# libomp itself (uninstrumented) are not ours, and Archer tells TSan about
# OpenMP's barriers and tasks.
set(AOTC_TSAN_TEST_ENVIRONMENT "TSAN_OPTIONS=ignore_noninstrumented_modules=1")
if(AOTC_ARCHER_LIBRARY)
  list(APPEND AOTC_TSAN_TEST_ENVIRONMENT
       "OMP_TOOL_LIBRARIES=${AOTC_ARCHER_LIBRARY}")
endif()

#===----------------------------------------------------------------------===#
# aot_test_support: .npz reader and per-dtype tolerances (C++17)
#===----------------------------------------------------------------------===#
get_property(_aotc_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
# C++ only: a C project gets aot_add_library() without it (aot_add_test()
# needs C++ and GoogleTest).
if(NOT TARGET aot_test_support AND "CXX" IN_LIST _aotc_languages)
  # EXCLUDE_FROM_ALL: built only when a test links it.
  add_library(aot_test_support STATIC EXCLUDE_FROM_ALL
    "${_AOTC_CMAKE_DIR}/aot_test_support/aot_npz.cpp")
  target_include_directories(aot_test_support PUBLIC
    "${_AOTC_CMAKE_DIR}/aot_test_support"
    "${AOTC_INCLUDE_DIR}")
  target_compile_features(aot_test_support PUBLIC cxx_std_17)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang|GNU")
    target_compile_options(aot_test_support PRIVATE -Wall -Wextra)
  endif()
endif()

#===----------------------------------------------------------------------===#
# Helpers
#===----------------------------------------------------------------------===#

# _aotc_resolve_path(<out-var> <path>): see "Relative ... paths" above.
function(_aotc_resolve_path out path)
  if(IS_ABSOLUTE "${path}")
    set(resolved "${path}")
  elseif(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${path}")
    set(resolved "${CMAKE_CURRENT_SOURCE_DIR}/${path}")
  else()
    set(resolved "${CMAKE_CURRENT_BINARY_DIR}/${path}")
  endif()
  cmake_path(NORMAL_PATH resolved)
  set(${out} "${resolved}" PARENT_SCOPE)
endfunction()

# _aotc_runtime_target(<out-var>): the runtime library target to link.
function(_aotc_runtime_target out)
  if(TARGET aot_runtime)
    set(${out} aot_runtime PARENT_SCOPE)
  elseif(TARGET Aotc::runtime)
    set(${out} Aotc::runtime PARENT_SCOPE)
  else()
    message(FATAL_ERROR "aotc: no aot_runtime target; add the aotc runtime "
                        "(add_subdirectory(runtime) or find_package(Aotc)) "
                        "before calling aot_add_library()")
  endif()
endfunction()

#===----------------------------------------------------------------------===#
# aot_add_library
#===----------------------------------------------------------------------===#
function(aot_add_library name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "SHARED"
                        "SOURCE;TARGET;MODEL_NAME;SANITIZE" "FLAGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "aot_add_library(${name}): unexpected arguments: "
                        "${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCE)
    message(FATAL_ERROR "aot_add_library(${name}): SOURCE is required")
  endif()
  if(NOT ARG_TARGET)
    set(ARG_TARGET cpu)
  endif()
  set(model "${name}")
  if(ARG_MODEL_NAME)
    set(model "${ARG_MODEL_NAME}")
  endif()
  if(NOT model MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "aot_add_library(${name}): the model name `${model}` "
                        "becomes a C identifier and a file name; use "
                        "[A-Za-z_][A-Za-z0-9_]*")
  endif()

  # The compiler: the in-tree target if there is one, else AOTC_EXECUTABLE.
  if(TARGET aotc)
    set(aotc_command "$<TARGET_FILE:aotc>")
    set(aotc_depends aotc)
  elseif(AOTC_EXECUTABLE)
    set(aotc_command "${AOTC_EXECUTABLE}")
    set(aotc_depends "${AOTC_EXECUTABLE}")
  else()
    message(FATAL_ERROR "aot_add_library(${name}): no `aotc` target and "
                        "AOTC_EXECUTABLE is not set")
  endif()

  if(ARG_SANITIZE)
    if(NOT ARG_SANITIZE MATCHES "^(address|thread)$")
      message(FATAL_ERROR "aot_add_library(${name}): SANITIZE is address or "
                          "thread, not `${ARG_SANITIZE}`")
    endif()
    list(APPEND ARG_FLAGS --sanitize=${ARG_SANITIZE})
  endif()

  _aotc_resolve_path(source "${ARG_SOURCE}")
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/aot/${name}")
  set(object "${dir}/${model}.o")
  set(header "${dir}/${model}.h")
  set(manifest "${dir}/${model}.json")

  add_custom_command(
    OUTPUT "${object}" "${header}" "${manifest}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
    COMMAND ${aotc_command} "${source}" --target=${ARG_TARGET} --name=${model}
            -o "${dir}" --emit=obj,header,json ${ARG_FLAGS}
    DEPENDS "${source}" ${aotc_depends}
    COMMENT "aotc: compiling ${model} (${ARG_TARGET}) for ${name}"
    VERBATIM COMMAND_EXPAND_LISTS)
  set_source_files_properties("${object}" PROPERTIES
    EXTERNAL_OBJECT TRUE GENERATED TRUE)

  # Header and manifest are listed as sources too, so that building the
  # library (which the consumers' compilation waits for) produces them.
  if(ARG_SHARED)
    add_library(${name} SHARED "${object}" "${header}" "${manifest}")
  else()
    add_library(${name} STATIC "${object}" "${header}" "${manifest}")
  endif()

  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if("C" IN_LIST languages)
    set(linker_language C)
  else()
    set(linker_language CXX)
  endif()
  set_target_properties(${name} PROPERTIES
    LINKER_LANGUAGE ${linker_language}
    AOT_HEADER "${header}"
    AOT_MANIFEST "${manifest}"
    AOT_OBJECT "${object}"
    AOT_MODEL_NAME "${model}"
    AOT_OUTPUT_DIR "${dir}"
    AOT_TARGET "${ARG_TARGET}"
    AOT_SANITIZE "${ARG_SANITIZE}")
  target_include_directories(${name} PUBLIC "${dir}" "${AOTC_INCLUDE_DIR}")
  if(ARG_SANITIZE)
    # The instrumented code calls the sanitizer's runtime.
    target_link_options(${name} INTERFACE -fsanitize=${ARG_SANITIZE})
  endif()

  _aotc_runtime_target(runtime)
  # GPU objects call their thin runtime (which brings aot_runtime), not
  # OpenMP.
  set(runtime_extra aotc::omp)
  if(ARG_TARGET STREQUAL "cuda" OR ARG_TARGET STREQUAL "hip")
    set(runtime aot_runtime_${ARG_TARGET})
    if(NOT TARGET aot_runtime_${ARG_TARGET})
      set(runtime Aotc::runtime_${ARG_TARGET})
    endif()
    set(runtime_extra)
  endif()
  if(ARG_SHARED)
    # A shared library must carry the runtime (its users, e.g. Python ctypes,
    # look up aot_status_string in it), even the members the object does not
    # reference: link the whole archive.
    if(CMAKE_VERSION VERSION_LESS 3.24)
      # No $<LINK_LIBRARY:WHOLE_ARCHIVE>: at least keep the status strings.
      target_link_libraries(${name} PRIVATE ${runtime} ${runtime_extra})
      target_link_options(${name} PRIVATE
        "LINKER:--undefined=aot_status_string")
    else()
      target_link_libraries(${name} PRIVATE
        "$<LINK_LIBRARY:WHOLE_ARCHIVE,${runtime}>" ${runtime_extra})
    endif()
  else()
    target_link_libraries(${name} PUBLIC ${runtime} ${runtime_extra})
  endif()
endfunction()

#===----------------------------------------------------------------------===#
# aot_add_test
#===----------------------------------------------------------------------===#
function(aot_add_test name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG ""
    "LIBRARY;REFERENCE;ENTRY;RTOL;ATOL;CONCURRENCY;THREAD_ROUNDS" "LABELS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "aot_add_test(${name}): unexpected arguments: "
                        "${ARG_UNPARSED_ARGUMENTS}")
  endif()
  foreach(required LIBRARY REFERENCE)
    if(NOT ARG_${required})
      message(FATAL_ERROR "aot_add_test(${name}): ${required} is required")
    endif()
  endforeach()
  if(NOT TARGET ${ARG_LIBRARY})
    message(FATAL_ERROR "aot_add_test(${name}): no target ${ARG_LIBRARY}")
  endif()
  get_target_property(manifest ${ARG_LIBRARY} AOT_MANIFEST)
  if(NOT manifest)
    message(FATAL_ERROR "aot_add_test(${name}): ${ARG_LIBRARY} was not made "
                        "by aot_add_library()")
  endif()
  if(NOT TARGET GTest::gtest)
    message(FATAL_ERROR "aot_add_test(${name}): find_package(GTest) first")
  endif()
  _aotc_resolve_path(reference "${ARG_REFERENCE}")

  # The generator's options; the entry point defaults (in the generator) to
  # the only one, since the manifest is not known before the build.
  set(generator_args)
  if(ARG_ENTRY)
    list(APPEND generator_args --entry ${ARG_ENTRY})
  endif()
  if(DEFINED ARG_RTOL)
    list(APPEND generator_args --rtol ${ARG_RTOL})
  endif()
  if(DEFINED ARG_ATOL)
    list(APPEND generator_args --atol ${ARG_ATOL})
  endif()
  if(ARG_CONCURRENCY)
    list(APPEND generator_args --concurrency ${ARG_CONCURRENCY})
  endif()
  if(ARG_THREAD_ROUNDS)
    list(APPEND generator_args --thread-rounds ${ARG_THREAD_ROUNDS})
  endif()
  string(MAKE_C_IDENTIFIER "${name}" suite)

  set(driver "${CMAKE_CURRENT_BINARY_DIR}/aot_tests/${name}.cpp")
  add_custom_command(
    OUTPUT "${driver}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory
            "${CMAKE_CURRENT_BINARY_DIR}/aot_tests"
    COMMAND "${AOTC_PYTHON}" "${_AOTC_CMAKE_DIR}/aot_gen_test.py"
            --manifest "${manifest}" --out "${driver}" --suite ${suite}
            ${generator_args}
    # The library target (a target-level dependency, and a file-level one on
    # its output) makes the manifest, which may come from another directory.
    DEPENDS "${_AOTC_CMAKE_DIR}/aot_gen_test.py" "${manifest}" ${ARG_LIBRARY}
    COMMENT "aotc: generating test driver ${name}"
    VERBATIM)

  add_executable(${name} "${driver}")
  target_link_libraries(${name} PRIVATE
    ${ARG_LIBRARY} aot_test_support GTest::gtest Threads::Threads)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang|GNU")
    target_compile_options(${name} PRIVATE -Wall -Wextra)
  endif()
  # The concurrency tests also call from the driver's own OpenMP region;
  # clang's -fopenmp uses the same libomp as the compiled code (GCC's would
  # bring libgomp beside it, so the region test is left out there).
  if(ARG_CONCURRENCY AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    target_compile_options(${name} PRIVATE -fopenmp)
    target_link_options(${name} PRIVATE -fopenmp)
  endif()
  get_target_property(sanitize ${ARG_LIBRARY} AOT_SANITIZE)
  if(sanitize)
    target_compile_options(${name} PRIVATE -fsanitize=${sanitize}
                                           -fno-omit-frame-pointer)
    target_link_options(${name} PRIVATE -fsanitize=${sanitize})
  endif()

  # The reference is read when the test runs, not when it builds; this
  # custom target only makes the build produce it (if a custom command in
  # this directory writes it) before the test can run. (With the Makefile
  # generators, a custom command attached to several targets may run twice
  # in parallel builds; Ninja has no such problem.)
  add_custom_target(${name}_reference DEPENDS "${reference}")
  add_dependencies(${name} ${name}_reference)

  add_test(NAME ${name} COMMAND ${name} "${reference}")
  set(labels e2e ${ARG_LABELS})
  list(REMOVE_DUPLICATES labels)
  set_tests_properties(${name} PROPERTIES LABELS "${labels}")
  if(sanitize STREQUAL "thread")
    set_tests_properties(${name} PROPERTIES
      ENVIRONMENT "${AOTC_TSAN_TEST_ENVIRONMENT}")
  endif()
endfunction()
