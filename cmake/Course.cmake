# The course as a build: chapter N adds layer N on top of layers 1..N-1.
#
# A chapter folder (chapters/NN-name/CMakeLists.txt) is a standalone CMake
# project that includes this file and calls minitf_build_course(NN-name). That
# builds, for chapters 1..N in order: the layer's library, its tests, the
# chapter's programs, its exercises and its benchmarks, and nothing later. The
# top-level CMakeLists.txt calls it with the last chapter, so it builds all.
#
# To add a chapter: append "NN-name:layer" to MINITF_CHAPTERS and give the
# layer src/minitf/<layer>/, tests/<layer>/ and chapters/NN-name/programs/.
#
# `cmake --install <build dir> --prefix <dir>` installs the layers built as a
# CMake package that other projects use with find_package(minitf) and
# minitf::<layer> (see minitf_layer and cmake/minitfConfig.cmake.in).

include_guard(GLOBAL)
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

get_filename_component(MINITF_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

# Chapter folder : layer folder (src/minitf/<layer>, tests/<layer>).
set(MINITF_CHAPTERS
  "01-tensors:tensor"
  "02-graph-and-session:graph"
  "03-variables-and-autodiff:train"
  "04-device-placement:device"
  "05-gpu-kernels:gpu"
  "06-multi-gpu-towers:towers"
  "07-ps-worker-distribution:distributed"
)

set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()
set(CMAKE_CXX_FLAGS_RELEASE "-O3 -DNDEBUG")

option(MINITF_NATIVE "Tune for this machine's CPU (-march=native)" ON)
# A named CPU level instead of this machine's: x86-64-v3 is AVX2 + FMA without
# AVX-512, how an AVX2 machine builds the course (scripts/common.sh,
# avx2_build). Set, it takes the place of MINITF_NATIVE.
set(MINITF_MARCH "" CACHE STRING
    "Target CPU for -march (e.g. x86-64-v3); empty: MINITF_NATIVE decides")
# Sanitizers: OFF; ON (or "address") for AddressSanitizer and UBSan;
# "thread" for ThreadSanitizer, which CI runs on the tests labelled "tsan";
# "fuzzer" for libFuzzer's coverage-guided fuzzers (fuzz/, clang only:
# CXX=clang++-14), which run with AddressSanitizer and UBSan too.
set(MINITF_SANITIZE OFF CACHE STRING
    "Sanitizers: OFF, ON/address (AddressSanitizer + UBSan), thread (ThreadSanitizer), fuzzer (libFuzzer + ASan + UBSan)")
set(MINITF_EXERCISES "solutions" CACHE STRING
    "Which exercise sources to build: 'solutions' (tests pass) or 'starters' (the learner's files)")
set_property(CACHE MINITF_EXERCISES PROPERTY STRINGS solutions starters)
set(MINITF_EXERCISE_TIMEOUT 60 CACHE STRING
    "Seconds an exercise's test may run before CTest stops it")

add_compile_options(-Wall -Wextra)
if(MINITF_MARCH)
  add_compile_options(-march=${MINITF_MARCH})
elseif(MINITF_NATIVE)
  add_compile_options(-march=native)
endif()
if(MINITF_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(MINITF_SANITIZE STREQUAL "fuzzer")
  # Every object gets libFuzzer's coverage counters (fuzzer-no-link); only
  # the fuzz targets link libFuzzer's main (-fsanitize=fuzzer, fuzz/).
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "MINITF_SANITIZE=fuzzer needs clang (CXX=clang++-14), "
                        "not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined
                      -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
  # LLVM's linker, where installed: it links the sanitized binaries of
  # layer 7 several times faster than GNU ld.
  find_program(MINITF_LLD NAMES ld.lld ld.lld-14)
  if(MINITF_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
elseif(MINITF_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
# Sanitized builds exist to run the tests once more, not to be fast: at -O1
# the heaviest Eigen files compile in up to half the time of -O3 under the
# sanitizers (cwise_ops.cc: 49 s instead of 86 s), and the kernels still run
# at a usable speed; -g1 gives the reports file and line. At -O1, GCC 12
# warns about its own AVX-512 intrinsics (`__Y = __Y` in avx512fintrin.h);
# the optimised build keeps those warnings for our code.
if(MINITF_SANITIZE)
  set(CMAKE_CXX_FLAGS_RELEASE "-O1 -g1 -DNDEBUG")
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-uninitialized -Wno-maybe-uninitialized)
  endif()
endif()

# ccache with paths taken relative to the repository: build trees at the same
# depth (build/all, build/01-tensors, ...) then share their cached objects, so
# building each chapter alone costs little after the full build.
find_program(MINITF_CCACHE ccache)
if(MINITF_CCACHE)
  set(launcher "${CMAKE_COMMAND}" -E env "CCACHE_BASEDIR=${MINITF_ROOT}" CCACHE_NOHASHDIR=true
               "${MINITF_CCACHE}")
  set(CMAKE_CXX_COMPILER_LAUNCHER ${launcher})
  set(CMAKE_CUDA_COMPILER_LAUNCHER ${launcher})
endif()

# CUDA is optional: chapters with GPU code build it only where nvcc is found.
# CUDA 13 rejects the old default architectures, so name them: Ampere (80) and
# Hopper (90) cover the course's GPUs; override with -DCMAKE_CUDA_ARCHITECTURES.
option(MINITF_CUDA "Build CUDA parts when a CUDA compiler is found" ON)
set(MINITF_HAVE_CUDA OFF)
if(MINITF_CUDA)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 80 90)
    endif()
    set(MINITF_HAVE_CUDA ON)
  endif()
endif()
message(STATUS "minitf: CUDA parts ${MINITF_HAVE_CUDA}")
# The language is enabled here, at the top of every build, because CMake
# wants it enabled in a folder above every target that compiles CUDA. C++17:
# CMake 3.25 (Debian 12) knows no C++20 flag for nvcc, and the kernels need
# none (the emulator's C++20 is for the host compiler only).
if(MINITF_HAVE_CUDA)
  enable_language(CUDA)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  set(CMAKE_CUDA_EXTENSIONS OFF)
  # nvcc 12 and later take -std=c++20, which CMake 3.25 does not know. A CUDA
  # target that includes the layers' headers (dtype.h has a concept) asks for
  # it with CUDA_STANDARD 20.
  if(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0 AND
     NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()
endif()

# minitf_find_package(<package> [args...]): find_package(... REQUIRED) for
# a package the layers' libraries use, recorded so that the installed
# minitfConfig.cmake finds it for the projects that use minitf. The course's
# own tools (GoogleTest, Google Benchmark) are found with plain find_package,
# so they stay out of the installed package. A macro, not a function, so the
# package's variables (Protobuf_PROTOC_EXECUTABLE ...) reach the caller.
macro(minitf_find_package)
  find_package(${ARGN} REQUIRED)
  string(JOIN " " _minitf_dependency ${ARGN})
  set_property(GLOBAL APPEND PROPERTY MINITF_PACKAGE_DEPENDENCIES "${_minitf_dependency}")
endmacro()

# minitf_protoc_at_configure(<var> <layer> <name>...): the messages
# src/minitf/<layer>/proto/<name>.proto, compiled by protoc when CMake
# configures into the build tree, included as
# "minitf/<layer>/proto/<name>.pb.h"; <var> is set to their .pb.cc files, for
# the layer's SOURCES. Not a build step: the build's <minitf/minitf.h>
# (build/include, see minitf_build_course) includes every built layer's API,
# so code that includes it without linking the layer sees its generated
# headers too, and must find them before anything compiles. Editing a .proto re-runs the configure step; the files are
# copied only when changed, so a re-configure does not rebuild everything.
# REQUIRES: minitf_find_package(Protobuf) in the caller.
function(minitf_protoc_at_configure var layer)
  set(out "${CMAKE_BINARY_DIR}/include")
  set(tmp "${CMAKE_CURRENT_BINARY_DIR}/protoc")
  file(MAKE_DIRECTORY "${tmp}" "${out}/minitf/${layer}/proto")
  set(sources "")
  foreach(name ${ARGN})
    set(proto "${MINITF_ROOT}/src/minitf/${layer}/proto/${name}.proto")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${proto}")
    execute_process(
      COMMAND "${Protobuf_PROTOC_EXECUTABLE}" "--cpp_out=${tmp}"
              -I "${MINITF_ROOT}/src" "${proto}"
      RESULT_VARIABLE protoc_result
      ERROR_VARIABLE protoc_error)
    if(NOT protoc_result EQUAL 0)
      message(FATAL_ERROR "protoc failed on ${proto}:\n${protoc_error}")
    endif()
    foreach(ext h cc)
      file(COPY_FILE "${tmp}/minitf/${layer}/proto/${name}.pb.${ext}"
           "${out}/minitf/${layer}/proto/${name}.pb.${ext}" ONLY_IF_DIFFERENT)
    endforeach()
    set(pb_cc "${out}/minitf/${layer}/proto/${name}.pb.cc")
    # Generated code is not ours to warn about.
    set_source_files_properties("${pb_cc}" PROPERTIES COMPILE_OPTIONS "-w")
    list(APPEND sources "${pb_cc}")
  endforeach()
  set(${var} ${sources} PARENT_SCOPE)
endfunction()

minitf_find_package(Eigen3 3.4 NO_MODULE)
minitf_find_package(OpenMP COMPONENTS CXX)
minitf_find_package(Threads)
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED)
include(GoogleTest)
enable_testing()

# minitf_layer(<layer> [SOURCES ...] [LAYERS ...] [DEPS ...]): the libraries
# of one layer. Headers are included as "minitf/<layer>/x.h".
#
#   minitf_<layer>_code  the layer's own code. It links the LAYERS, the
#                        earlier layers whose headers its files include (the
#                        layers those link come with them), and DEPS, the
#                        other libraries it uses; nothing else of the course.
#                        tools/layer_check.py (CTest tools.layers) fails on
#                        an include of a layer that LAYERS does not reach.
#   minitf_<layer>       what a chapter's programs and tests link: the code
#                        of this layer and of every layer built before it,
#                        the chapter's whole course so far, as the umbrella
#                        header <minitf/minitf.h> shows it.
#
# A layer with no sources of its own yet is an interface target of its
# LAYERS and DEPS.
#
# Ops and kernels register themselves from static initialisers (the op and
# kernel registries), which nothing else references; a plain static library
# would let the linker drop them. So each layer's code is linked whole,
# wherever it is linked (_minitf_whole_code).
#
# Both are installed, with the layer's headers, and exported as
# minitf::<layer> and minitf::<layer>_code. What they pass on to a program
# that links them is what it needs to compile and link, and no more: the
# include directories, C++20, the packages the layer uses. The course's
# warnings, -march=native and sanitizers are set for its own folders
# (add_compile_options above), so they stay in the course's build.
function(minitf_layer layer)
  cmake_parse_arguments(ARG "" "" "SOURCES;LAYERS;DEPS" ${ARGN})
  get_property(built GLOBAL PROPERTY MINITF_BUILT_LAYERS)
  set_property(GLOBAL APPEND PROPERTY MINITF_BUILT_LAYERS ${layer})
  set(layers "")
  foreach(below ${ARG_LAYERS})
    if(NOT below IN_LIST built)
      message(FATAL_ERROR "minitf_layer(${layer}): LAYERS names ${below}, "
                          "which is not a layer built before it")
    endif()
    _minitf_whole_code(code ${below})
    list(APPEND layers ${code})
  endforeach()
  # The layers before this one, as a chapter's programs link them.
  set(course "")
  if(built)
    list(GET built -1 previous)
    set(course minitf_${previous})
  endif()
  if(NOT ARG_SOURCES)
    add_library(minitf_${layer} INTERFACE)
    target_include_directories(minitf_${layer} INTERFACE "${MINITF_ROOT}/src"
                                                         "${CMAKE_BINARY_DIR}/include")
    target_link_libraries(minitf_${layer} INTERFACE ${layers} ${ARG_DEPS} ${course})
    return()
  endif()
  add_library(minitf_${layer}_code STATIC ${ARG_SOURCES})
  # The fuzzers' build compiles the Eigen kernels (folders named kernels/)
  # at -O0, still sanitized: at -O1 they take most of the build's time, and
  # the fuzzers feed them small tensors. The unit tests that CI runs in the
  # same tree (.ci/run, step 5) run these kernels at -O0 too: the matrix
  # products' tests are the slowest there.
  if(MINITF_SANITIZE STREQUAL "fuzzer")
    foreach(source ${ARG_SOURCES})
      if(source MATCHES "/kernels/")
        set_property(SOURCE "${source}" APPEND PROPERTY COMPILE_OPTIONS -O0)
      endif()
    endforeach()
  endif()
  target_include_directories(minitf_${layer}_code PUBLIC
    "$<BUILD_INTERFACE:${MINITF_ROOT}/src;${CMAKE_BINARY_DIR}/include>"
    "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  target_compile_features(minitf_${layer}_code PUBLIC cxx_std_20)
  target_link_libraries(minitf_${layer}_code PUBLIC ${layers} ${ARG_DEPS})
  add_library(minitf_${layer} INTERFACE)
  _minitf_whole_code(code ${layer})
  target_link_libraries(minitf_${layer} INTERFACE ${code} ${course})
  set_target_properties(minitf_${layer}_code PROPERTIES EXPORT_NAME ${layer}_code)
  set_target_properties(minitf_${layer} PROPERTIES EXPORT_NAME ${layer})
  install(TARGETS minitf_${layer} minitf_${layer}_code EXPORT minitfTargets
          ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
  install(DIRECTORY "${MINITF_ROOT}/src/minitf/${layer}/"
          DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/minitf/${layer}"
          FILES_MATCHING PATTERN "*.h")
endfunction()

# minitf_layer_defaults(<layer> <source>...): definitions of the layer that
# a program may replace with its own, in minitf_<layer>_defaults, a static
# library that minitf_<layer>_code links after itself. It is linked as a
# plain archive, not whole: a linker takes a member of an archive only for a
# symbol still undefined, so a program whose own object files define the
# symbol keeps its definition, and every other program gets the archive's.
# (In the layer's code, which is linked whole, the default would clash with
# the program's definition.) Each source defines one such symbol and
# nothing else, so that no other reference pulls it in. The fuzzers replace
# two limits this way (fuzz/fuzzing_limits.cc), so that the unit tests and
# the fuzzers build in one tree, from the same objects, and the tests check
# the engine's real limits.
function(minitf_layer_defaults layer)
  set(target minitf_${layer}_defaults)
  add_library(${target} STATIC ${ARGN})
  target_include_directories(${target} PRIVATE
    "$<TARGET_PROPERTY:minitf_${layer}_code,INTERFACE_INCLUDE_DIRECTORIES>")
  target_compile_features(${target} PRIVATE cxx_std_20)
  target_link_libraries(minitf_${layer}_code PUBLIC ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${layer}_defaults)
  install(TARGETS ${target} EXPORT minitfTargets ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
endfunction()

# _minitf_whole_code(<var> <layer>): minitf_<layer>_code, linked whole. CMake
# 3.25 exports the target named in $<LINK_LIBRARY:...> as it is spelled,
# without the minitf:: namespace, so the installed name is given.
function(_minitf_whole_code var layer)
  set(${var}
      "$<BUILD_INTERFACE:$<LINK_LIBRARY:WHOLE_ARCHIVE,minitf_${layer}_code>>"
      "$<INSTALL_INTERFACE:$<LINK_LIBRARY:WHOLE_ARCHIVE,minitf::${layer}_code>>"
      PARENT_SCOPE)
endfunction()

# minitf_test(<name> SOURCES ... LIBS ... [LABEL <label>] [PREFIX <p>]
#             [TMPDIR <dir>]): a GoogleTest binary whose tests carry the
# current chapter's label (ch01 ...) and "unit", so `ctest -L ch01` runs
# them; LABEL adds one more to this binary's tests ("tsan": CI runs them
# again under ThreadSanitizer). PREFIX goes before each test's name and
# TMPDIR is where its tests' ::testing::TempDir() points, for a binary that
# runs another chapter's tests again, at the same time as that chapter's.
#
# The chapter's label and "unit" are put on the folder (the LABELS directory
# property, which its tests inherit), not passed as a test property: in
# gtest_discover_tests' PRE_TEST mode a list loses its ';' on the way, so a
# test property can hold one label only.
function(minitf_test name)
  cmake_parse_arguments(ARG "" "LABEL;PREFIX;TMPDIR" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gmock GTest::gtest_main)
  # `cmake --build ... --target minitf_unit_tests` builds every test binary
  # and nothing else: what CI's sanitizer step needs for `ctest -L unit`.
  if(NOT TARGET minitf_unit_tests)
    add_custom_target(minitf_unit_tests)
  endif()
  add_dependencies(minitf_unit_tests ${name})
  get_property(labels DIRECTORY PROPERTY LABELS)
  list(APPEND labels ${MINITF_CHAPTER_LABEL} unit)
  list(REMOVE_DUPLICATES labels)
  set_property(DIRECTORY PROPERTY LABELS ${labels})
  set(properties "")
  if(ARG_LABEL)
    list(APPEND properties LABELS ${ARG_LABEL})
  endif()
  if(ARG_TMPDIR)
    file(MAKE_DIRECTORY "${ARG_TMPDIR}")
    list(APPEND properties ENVIRONMENT "TEST_TMPDIR=${ARG_TMPDIR}")
  endif()
  if(properties)
    list(PREPEND properties PROPERTIES)
  endif()
  # DISCOVERY_TIMEOUT: the first start of a binary linked with the CUDA
  # libraries reads hundreds of megabytes from a cold disk; five seconds, the
  # default, is not always enough on a small machine.
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 120
                       TEST_PREFIX "${ARG_PREFIX}" ${properties})
endfunction()

# minitf_program(<name> SOURCES ... LIBS ...): one of a chapter's programs.
function(minitf_program name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS})
  set_property(GLOBAL APPEND PROPERTY MINITF_PROGRAMS_${MINITF_CHAPTER_LABEL} ${name})
endfunction()

# minitf_oracle_test(<program>): one of the chapter's seed programs against
# its TensorFlow twin, tests/oracle/twins/<program>.py (tests/oracle/oracle.py
# says what is compared). Labels: the chapter's and "oracle". Where the peers
# (scripts/peers.sh) are not installed, the test is skipped, saying so.
function(minitf_oracle_test program)
  add_test(NAME oracle.${program}
           COMMAND bash ${MINITF_ROOT}/tests/oracle/oracle.sh ${program}
                   $<TARGET_FILE:${program}>)
  set_tests_properties(oracle.${program} PROPERTIES
    LABELS "${MINITF_CHAPTER_LABEL};oracle" SKIP_RETURN_CODE 77)
endfunction()

# minitf_exercise(<name> SOURCE <file.cc> TEST <test.cc> LIBS ...
#                 [PIECE <register.cc>... SEED <program> [SEED_ARGS ...]
#                  [SEED_LINES <regex>] [SEED_DROP <regex>] [SEED_TOLERANCE <t>]
#                  [SEED_TITLE <text>] [SEED_SKIP <regex>]
#                  [SEED_RUNNER <command>...]]):
# one exercise, called from its folder exercises/NN-chapter/<name>/. The
# learner edits <name>/<file.cc>; the reference is <name>/solution/<file.cc>.
# MINITF_EXERCISES picks which one is compiled; the test is the same either way.
#
# An exercise that builds a piece of the engine names, with PIECE, the files
# that register <file.cc>'s code through the engine's own extension points,
# at a priority above the library's own (graph/registration.h). Then:
#   exercise_<name>_piece   an object library: <file.cc> and the PIECE files;
#   <program>_with_<name>   the chapter's seed program <program> built from
#                           its own sources with the piece linked in, so the
#                           piece's static registration replaces the library's;
#   exercise_seed.<name>    a CTest test (label "exercise_seed") that runs both
#                           programs with SEED_ARGS and passes when the lines
#                           matching SEED_LINES (less what matches
#                           SEED_DROP, a timing) agree, numbers within
#                           SEED_TOLERANCE (tools/learn.py compare); skipped
#                           when the reference prints SEED_SKIP (data missing);
#                           SEED_RUNNER, when given, is the command that runs
#                           each program, named after it (seed 003's cluster:
#                           scripts/cluster.sh starts its processes);
# and exercise_seeds/<name>.txt in the build folder, which tells
# `tools/learn.py run` what to build and run.
function(minitf_exercise name)
  cmake_parse_arguments(ARG "" "SOURCE;TEST;SEED;SEED_LINES;SEED_TOLERANCE;SEED_TITLE;SEED_SKIP;SEED_DROP"
                        "LIBS;PIECE;SEED_ARGS;SEED_RUNNER" ${ARGN})
  # tools/learn.py finds exercises by folder and builds exercise_<folder>.
  get_filename_component(folder "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  if(NOT name STREQUAL folder)
    message(FATAL_ERROR "minitf_exercise(${name}) must be called from a folder named ${name}, "
                        "not ${folder}")
  endif()
  if(MINITF_EXERCISES STREQUAL "starters")
    set(impl "${CMAKE_CURRENT_SOURCE_DIR}/${ARG_SOURCE}")
  else()
    set(impl "${CMAKE_CURRENT_SOURCE_DIR}/solution/${ARG_SOURCE}")
  endif()
  add_executable(exercise_${name} ${ARG_TEST} ${impl})
  # The exercise's folder, its chapter's for test helpers the chapter's
  # exercises share (exercises/03-variables-and-autodiff/exercise_testing.h),
  # and exercises/common for those every exercise shares (exercise_checks.h).
  get_filename_component(chapter_dir "${CMAKE_CURRENT_SOURCE_DIR}" DIRECTORY)
  set(include_dirs "${CMAKE_CURRENT_SOURCE_DIR}" "${chapter_dir}"
                   "${MINITF_ROOT}/exercises/common")
  target_include_directories(exercise_${name} PRIVATE ${include_dirs})
  target_link_libraries(exercise_${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  # One CTest test per exercise, so a learner's runner re-checks one by name.
  # A wrong answer may never return (a loop that does not end, a wait for a
  # gradient that never comes): CTest stops the test after
  # MINITF_EXERCISE_TIMEOUT seconds, and tools/learn.py says which test was
  # still running.
  add_test(NAME exercise.${name} COMMAND exercise_${name})
  set_tests_properties(exercise.${name} PROPERTIES LABELS "${MINITF_CHAPTER_LABEL};exercise"
                                                   TIMEOUT ${MINITF_EXERCISE_TIMEOUT})
  if(NOT ARG_PIECE)
    return()
  endif()
  # The piece and its seed program are made once the seed's target exists:
  # now for a seed of this chapter or an earlier one, at the end of the
  # configuration for a later chapter's seed (exercise 1.3's softmax kernel
  # runs in chapter 3's seed 002), and never in a build that stops before
  # that chapter.
  if(NOT ARG_SEED)
    message(FATAL_ERROR "minitf_exercise(${name}): PIECE needs SEED, the seed program to run")
  endif()
  list(TRANSFORM ARG_PIECE PREPEND "${CMAKE_CURRENT_SOURCE_DIR}/")
  foreach(key IN ITEMS PIECE SEED SEED_ARGS SEED_LINES SEED_TOLERANCE SEED_TITLE SEED_SKIP SEED_DROP SEED_RUNNER LIBS)
    set_property(GLOBAL PROPERTY MINITF_PIECE_${name}_${key} "${ARG_${key}}")
  endforeach()
  set_property(GLOBAL PROPERTY MINITF_PIECE_${name}_IMPL "${impl}")
  set_property(GLOBAL PROPERTY MINITF_PIECE_${name}_INCLUDES "${include_dirs}")
  set_property(GLOBAL PROPERTY MINITF_PIECE_${name}_LABEL "${MINITF_CHAPTER_LABEL}")
  set_property(GLOBAL PROPERTY MINITF_PIECE_${name}_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  if(TARGET ${ARG_SEED})
    _minitf_exercise_piece(${name})
  else()
    cmake_language(EVAL CODE
      "cmake_language(DEFER DIRECTORY [[${CMAKE_SOURCE_DIR}]] CALL _minitf_exercise_piece [[${name}]])")
  endif()
endfunction()

# The piece of exercise <name> and its seed program (see minitf_exercise),
# from what minitf_exercise stored in global properties.
function(_minitf_exercise_piece name)
  foreach(key IN ITEMS PIECE SEED SEED_ARGS SEED_LINES SEED_TOLERANCE SEED_TITLE SEED_SKIP SEED_DROP SEED_RUNNER LIBS
                       IMPL INCLUDES LABEL DIR)
    get_property(ARG_${key} GLOBAL PROPERTY MINITF_PIECE_${name}_${key})
  endforeach()
  if(NOT ARG_SEED OR NOT TARGET ${ARG_SEED})
    message(STATUS "minitf: exercise ${name}'s seed program ${ARG_SEED} is not in this build; "
                   "`tools/learn.py run` needs a build of its chapter")
    return()
  endif()
  set(piece exercise_${name}_piece)
  add_library(${piece} OBJECT ${ARG_IMPL} ${ARG_PIECE})
  target_include_directories(${piece} PRIVATE ${ARG_INCLUDES})
  target_link_libraries(${piece} PRIVATE ${ARG_LIBS}
                                         $<TARGET_PROPERTY:${ARG_SEED},LINK_LIBRARIES>)
  # The seed's own sources (named relative to its folder), include folders
  # and libraries, with the piece's objects: objects named on the link line
  # are always linked, so their static registrations always run.
  set(program ${ARG_SEED}_with_${name})
  get_target_property(seed_dir ${ARG_SEED} SOURCE_DIR)
  get_target_property(seed_sources ${ARG_SEED} SOURCES)
  set(sources "")
  foreach(source ${seed_sources})
    if(NOT IS_ABSOLUTE "${source}")
      set(source "${seed_dir}/${source}")
    endif()
    list(APPEND sources "${source}")
  endforeach()
  add_executable(${program} ${sources} $<TARGET_OBJECTS:${piece}>)
  target_link_libraries(${program} PRIVATE $<TARGET_PROPERTY:${ARG_SEED},LINK_LIBRARIES>
                                           ${ARG_LIBS})
  target_include_directories(${program} PRIVATE
                             $<TARGET_PROPERTY:${ARG_SEED},INCLUDE_DIRECTORIES>)
  target_compile_definitions(${program} PRIVATE
                             $<TARGET_PROPERTY:${ARG_SEED},COMPILE_DEFINITIONS>)
  if(NOT ARG_SEED_LINES)
    set(ARG_SEED_LINES ".")
  endif()
  if(NOT ARG_SEED_TOLERANCE)
    set(ARG_SEED_TOLERANCE 0)
  endif()
  if(NOT ARG_SEED_TITLE)
    set(ARG_SEED_TITLE "${ARG_SEED}")
  endif()
  # One "key=value" a line; "arg=" once per argument, in order.
  set(manifest "${CMAKE_BINARY_DIR}/exercise_seeds/${name}.txt")
  set(content "exercise=${name}\ntitle=${ARG_SEED_TITLE}\n")
  string(APPEND content "yours_target=${program}\nyours=$<TARGET_FILE:${program}>\n")
  string(APPEND content "reference_target=${ARG_SEED}\nreference=$<TARGET_FILE:${ARG_SEED}>\n")
  string(APPEND content "lines=${ARG_SEED_LINES}\ntolerance=${ARG_SEED_TOLERANCE}\n")
  if(ARG_SEED_SKIP)
    string(APPEND content "skip=${ARG_SEED_SKIP}\n")
  endif()
  if(ARG_SEED_DROP)
    string(APPEND content "drop=${ARG_SEED_DROP}\n")
  endif()
  foreach(word ${ARG_SEED_RUNNER})
    string(APPEND content "runner=${word}\n")
  endforeach()
  foreach(arg ${ARG_SEED_ARGS})
    string(APPEND content "arg=${arg}\n")
  endforeach()
  file(GENERATE OUTPUT "${manifest}" CONTENT "${content}")
  add_test(NAME exercise_seed.${name}
           COMMAND python3 "${MINITF_ROOT}/tools/learn.py" compare "${manifest}"
           WORKING_DIRECTORY "${ARG_DIR}")
  # COST, here and on the other long tests: about the seconds the test
  # takes. `ctest -j` starts the costliest tests first, so that the long
  # ones run beside the many short ones instead of after them; a build
  # tree remembers each test's time, but a fresh clone has only these.
  set_tests_properties(exercise_seed.${name} PROPERTIES
    LABELS "${ARG_LABEL};exercise_seed" TIMEOUT 600 SKIP_RETURN_CODE 77 COST 20)
endfunction()

# _minitf_write_umbrella(<chapter> <folder>): writes <folder>/minitf/minitf.h,
# the public API of every layer built so far, through <chapter>'s.
function(_minitf_write_umbrella chapter folder)
  get_property(layers GLOBAL PROPERTY MINITF_BUILT_LAYERS)
  set(body "// Generated by cmake/Course.cmake for the course through chapter ${chapter}.\n")
  string(APPEND body "// The public API of every layer up to that chapter's; include it as\n")
  string(APPEND body "//   #include <minitf/minitf.h>\n//   namespace tf = minitf;\n")
  string(APPEND body "#pragma once\n")
  foreach(layer ${layers})
    string(APPEND body "#include \"minitf/${layer}/api.h\"\n")
  endforeach()
  file(CONFIGURE OUTPUT "${folder}/minitf/minitf.h" CONTENT "${body}")
endfunction()

# The install rules of the package as a whole: the generated headers
# (minitf/minitf.h and the protobuf messages' headers), the exported targets
# of every layer built (minitf_layer installs each layer's own files), and
# minitfConfig.cmake with its version file. The version is 0.<last chapter>:
# find_package(minitf 0.3) asks for chapter 3's layers or later ones.
function(_minitf_install_package last_chapter)
  get_property(MINITF_LAYERS GLOBAL PROPERTY MINITF_BUILT_LAYERS)
  get_property(dependencies GLOBAL PROPERTY MINITF_PACKAGE_DEPENDENCIES)
  list(REMOVE_DUPLICATES dependencies)
  set(MINITF_FIND_DEPENDENCIES "")
  foreach(dependency ${dependencies})
    string(APPEND MINITF_FIND_DEPENDENCIES "find_dependency(${dependency})\n")
  endforeach()
  set(destination "${CMAKE_INSTALL_LIBDIR}/cmake/minitf")
  configure_package_config_file("${MINITF_ROOT}/cmake/minitfConfig.cmake.in"
                                "${CMAKE_BINARY_DIR}/minitfConfig.cmake"
                                INSTALL_DESTINATION "${destination}")
  string(SUBSTRING "${last_chapter}" 0 2 number)
  math(EXPR number "${number}")
  write_basic_package_version_file("${CMAKE_BINARY_DIR}/minitfConfigVersion.cmake"
                                   VERSION "0.${number}" COMPATIBILITY SameMajorVersion)
  install(EXPORT minitfTargets NAMESPACE minitf:: DESTINATION "${destination}")
  install(FILES "${CMAKE_BINARY_DIR}/minitfConfig.cmake"
                "${CMAKE_BINARY_DIR}/minitfConfigVersion.cmake"
          DESTINATION "${destination}")
  install(DIRECTORY "${CMAKE_BINARY_DIR}/include/minitf"
          DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
          FILES_MATCHING PATTERN "*.h")
endfunction()

# --- Per-chapter aggregate targets (README command 1 builds chapter by chapter) ---
# `cmake --build <dir> --target chapter_03` builds what chapter 3 adds and
# what it stands on: its layer's libraries, its programs (with every helper
# program the chapter's scripts start) and its exercises, and through their
# links layers 1 and 2; not its tests or benchmarks. `chapter_03_programs`
# is the same without the exercises. scripts/demo.sh builds them in course
# order, running each chapter's programs before it builds the next chapter.

# _minitf_folder_targets(<var> <binary dir>): every target that can be built
# (not an interface or imported one) defined in a build folder or below it.
function(_minitf_folder_targets var dir)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  set(found "")
  foreach(target ${targets})
    get_target_property(type ${target} TYPE)
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      list(APPEND found ${target})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(subdir ${subdirs})
    _minitf_folder_targets(below "${subdir}")
    list(APPEND found ${below})
  endforeach()
  set(${var} ${found} PARENT_SCOPE)
endfunction()

# _minitf_chapter_targets(<chapter> <layer>): chapter_NN_programs and
# chapter_NN, called once the chapter's folders are added.
function(_minitf_chapter_targets chapter layer)
  string(SUBSTRING "${chapter}" 0 2 number)
  _minitf_folder_targets(library "${CMAKE_BINARY_DIR}/src/${layer}")
  _minitf_folder_targets(programs "${CMAKE_BINARY_DIR}/programs/${chapter}")
  _minitf_folder_targets(exercises "${CMAKE_BINARY_DIR}/exercises/${chapter}")
  add_custom_target(chapter_${number}_programs)
  if(library OR programs)
    add_dependencies(chapter_${number}_programs ${library} ${programs})
  endif()
  add_custom_target(chapter_${number})
  add_dependencies(chapter_${number} chapter_${number}_programs)
  if(exercises)
    add_dependencies(chapter_${number} ${exercises})
  endif()
endfunction()
# --- end of the per-chapter aggregate targets ---

# minitf_build_course(<last chapter folder>): layers, tests, programs,
# exercises and benchmarks of chapters 1..last, in order.
#
# <minitf/minitf.h>, the umbrella header, includes the API of every layer
# built. Chapter NN's tests, programs, exercises and benchmarks find the one
# of layers 1..NN (build/chapter_include/NN), in every build that holds the
# chapter: so a chapter's code compiles to the same objects in its own
# build, in each later chapter's and in the whole course's, and ccache
# serves each chapter's standalone build (.ci/run, step 2) from the whole
# course's. build/include/minitf/minitf.h, with every layer of the build,
# is what the installed package holds.
function(minitf_build_course last_chapter)
  set(found OFF)
  foreach(entry ${MINITF_CHAPTERS})
    string(REPLACE ":" ";" parts "${entry}")
    list(GET parts 0 chapter)
    list(GET parts 1 layer)
    string(SUBSTRING "${chapter}" 0 2 number)
    set(MINITF_CHAPTER_LABEL "ch${number}")
    set(MINITF_CHAPTER "${chapter}")
    # The chapter's umbrella header (see above): the folders added after
    # this look in chapter_include/NN first. The layer's own folder does not.
    set_property(DIRECTORY PROPERTY INCLUDE_DIRECTORIES "")
    add_subdirectory("${MINITF_ROOT}/src/minitf/${layer}" "src/${layer}")
    set(umbrella "${CMAKE_BINARY_DIR}/chapter_include/${number}")
    _minitf_write_umbrella("${chapter}" "${umbrella}")
    set_property(DIRECTORY PROPERTY INCLUDE_DIRECTORIES "${umbrella}")
    add_subdirectory("${MINITF_ROOT}/tests/${layer}" "tests/${layer}")
    add_subdirectory("${MINITF_ROOT}/chapters/${chapter}/programs" "programs/${chapter}")
    add_subdirectory("${MINITF_ROOT}/exercises/${chapter}" "exercises/${chapter}")
    if(EXISTS "${MINITF_ROOT}/benchmarks/${layer}/CMakeLists.txt")
      add_subdirectory("${MINITF_ROOT}/benchmarks/${layer}" "benchmarks/${layer}")
    endif()
    _minitf_chapter_targets("${chapter}" "${layer}")  # chapter_NN: see the block above
    if(chapter STREQUAL last_chapter)
      set(found ON)
      break()
    endif()
  endforeach()
  if(NOT found)
    message(FATAL_ERROR "minitf: no chapter named '${last_chapter}' in MINITF_CHAPTERS")
  endif()
  set_property(DIRECTORY PROPERTY INCLUDE_DIRECTORIES "")
  _minitf_write_umbrella("${last_chapter}" "${CMAKE_BINARY_DIR}/include")
  _minitf_install_package("${last_chapter}")
  # The installed package, used by a project outside the course (label
  # "install"). Its program trains a variable, so it needs layer 3.
  get_property(layers GLOBAL PROPERTY MINITF_BUILT_LAYERS)
  if("train" IN_LIST layers)
    add_subdirectory("${MINITF_ROOT}/tests/install" "tests/install")
  endif()
  # Course-wide tests of the tooling: the docs hook, the exercise runner and
  # the demo's program runner.
  # Debian's mkdocs lives under /usr/bin/python3, so the hook's tests use it.
  add_test(NAME tools.docs_hooks
           COMMAND /usr/bin/python3 -m unittest discover -s tests/docs -t tests/docs
           WORKING_DIRECTORY "${MINITF_ROOT}")
  add_test(NAME tools.learn COMMAND python3 "${MINITF_ROOT}/tests/tools/test_learn.py")
  add_test(NAME tools.run_programs
           COMMAND python3 "${MINITF_ROOT}/tests/tools/test_run_programs.py")
  set_tests_properties(tools.docs_hooks tools.learn tools.run_programs
                       PROPERTIES LABELS tools)
  set_tests_properties(tools.learn PROPERTIES COST 12)  # COST: see exercise_seed
  # The book (label "book"): no talk of the project's process and no page
  # over the word limit anywhere a learner reads (tools/book_check.py), and
  # the checker's own tests, which plant both faults in a tree of their own.
  add_test(NAME tools.book COMMAND python3 "${MINITF_ROOT}/tools/book_check.py")
  add_test(NAME tools.book_check
           COMMAND python3 "${MINITF_ROOT}/tests/tools/test_book_check.py")
  set_tests_properties(tools.book PROPERTIES LABELS book)
  set_tests_properties(tools.book_check PROPERTIES LABELS "tools;book")
  # The code (label "tools"): no function in src/ longer than a reader can
  # hold in one look (tools/function_length_check.py), and the checker's own
  # tests, which plant a long function in a tree of their own.
  add_test(NAME tools.function_length
           COMMAND python3 "${MINITF_ROOT}/tools/function_length_check.py")
  add_test(NAME tools.function_length_check
           COMMAND python3 "${MINITF_ROOT}/tests/tools/test_function_length_check.py")
  set_tests_properties(tools.function_length tools.function_length_check
                       PROPERTIES LABELS tools)
  # The layers' includes (label "tools"): no file of a layer includes a
  # layer its CMake does not link (tools/layer_check.py), and the checker's
  # own tests, which plant such an include in a tree of their own.
  add_test(NAME tools.layers COMMAND python3 "${MINITF_ROOT}/tools/layer_check.py")
  add_test(NAME tools.layer_check
           COMMAND python3 "${MINITF_ROOT}/tests/tools/test_layer_check.py")
  set_tests_properties(tools.layers tools.layer_check PROPERTIES LABELS tools)
  # The main demo reads this list to run each chapter's programs in order.
  set(listing "")
  foreach(entry ${MINITF_CHAPTERS})
    string(REPLACE ":" ";" parts "${entry}")
    list(GET parts 0 chapter)
    string(SUBSTRING "${chapter}" 0 2 number)
    get_property(programs GLOBAL PROPERTY MINITF_PROGRAMS_ch${number})
    string(APPEND listing "${chapter}: ${programs}\n")
    if(chapter STREQUAL last_chapter)
      break()
    endif()
  endforeach()
  file(WRITE "${CMAKE_BINARY_DIR}/programs.txt" "${listing}")
endfunction()
