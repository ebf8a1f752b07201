# Installs a build of the course into a fresh prefix, then configures, builds
# and runs the project in consumer/ against it, as a project outside the
# course would. Fails when:
#   - the package asks its users for the course's test tools, or passes them
#     the course's compiler flags;
#   - the consumer does not build, or fails (an op, kernel or gradient that
#     a layer registers from a static initialiser was dropped by the linker);
#   - its results are wrong, or, where layer 4 is installed, its session did
#     not place the nodes on a device (the devices' registrations dropped).
#   cmake -DBUILD_DIR=<course build> -DCONFIG=<config> -DWORK_DIR=<scratch>
#         -DCONSUMER=<consumer source> -DLIBDIR=<lib dir in the prefix>
#         -DGENERATOR=<generator> -DCOMPILER=<C++ compiler> [-DLAUNCHER=<ccache>]
#         -P check_install.cmake
cmake_minimum_required(VERSION 3.25)

# run(<what> <command...>): runs the command, and fails with its output.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
run("cmake --install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --config "${CONFIG}"
    --prefix "${prefix}")

file(READ "${prefix}/${LIBDIR}/cmake/minitf/minitfConfig.cmake" config)
foreach(tool GTest benchmark)
  if(config MATCHES "find_dependency\\(${tool}")
    message(FATAL_ERROR "minitfConfig.cmake asks for ${tool}, a tool of the course's own:\n"
                        "${config}")
  endif()
endforeach()

set(build "${WORK_DIR}/build")
set(launcher "")
if(LAUNCHER)
  set(launcher "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}")
endif()
run("configuring the consumer" "${CMAKE_COMMAND}" -S "${CONSUMER}" -B "${build}"
    -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${COMPILER}" "-DCMAKE_PREFIX_PATH=${prefix}"
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON ${launcher})
run("building the consumer" "${CMAKE_COMMAND}" --build "${build}")

# The course's warnings, CPU tuning and sanitizers are its own business.
file(READ "${build}/compile_commands.json" commands)
foreach(flag -march=native -Wextra -fsanitize)
  string(FIND "${commands}" "${flag}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "the consumer was compiled with the course's ${flag}:\n${commands}")
  endif()
endforeach()

execute_process(COMMAND "${build}/consumer" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer failed (${rc}):\n${out}${err}")
endif()
# expect(<text>): fails unless the consumer printed <text>.
function(expect text)
  string(FIND "${out}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the consumer's output lacks\n${text}\nIt printed:\n${out}${err}")
  endif()
endfunction()
expect("c =\n[[22. 28.]\n [49. 64.]]\n")
expect("w after one step: 1.5\n")
if(EXISTS "${prefix}/include/minitf/device")
  # The placement log's line for the matmul: a DirectSession placed it.
  expect("MatMul: (MatMul): /job:localhost/replica:0/task:0/device:CPU:0\n")
endif()
# Every layer built is installed, each with its headers.
foreach(layer tensor graph train device gpu towers distributed)
  if(EXISTS "${BUILD_DIR}/src/${layer}" AND NOT EXISTS "${prefix}/include/minitf/${layer}")
    message(FATAL_ERROR "layer ${layer} was built but not installed")
  endif()
endforeach()
if(EXISTS "${prefix}/include/minitf/distributed")
  # The consumer linked layer 7 and ran the matmul on its gRPC server.
  expect("c on grpc://localhost:\n[[22. 28.]\n [49. 64.]]\n")
endif()
message(STATUS "the installed package works:\n${out}")
