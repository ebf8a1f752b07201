# Runs a program and checks all it prints: its standard output against a
# file of expected text, to the character; its standard error against
# another (or empty); and its exit code. Nothing is masked: a placement log
# and a training run are the same on every run. On a difference it names
# the first line that differs and keeps what the program printed, to diff
# with the expected file.
#   cmake -DPROGRAM=<exe> [-DARGS="<arg> ..."] [-DEXPECTED=<file>]
#         [-DEXPECTED_STDERR=<file>] [-DEXIT_CODE=<n>] -DACTUAL=<file>
#         -P check_output.cmake
# EXPECTED and EXPECTED_STDERR default to nothing printed; EXIT_CODE to 0.
cmake_minimum_required(VERSION 3.25)
separate_arguments(ARGS UNIX_COMMAND "${ARGS}")
foreach(stream EXPECTED EXPECTED_STDERR)
  set(${stream}_TEXT "")
  if(DEFINED ${stream})
    file(READ "${${stream}}" ${stream}_TEXT)
  endif()
endforeach()
if(NOT DEFINED EXIT_CODE)
  set(EXIT_CODE 0)
endif()
execute_process(COMMAND "${PROGRAM}" ${ARGS} OUTPUT_VARIABLE out
                ERROR_VARIABLE err RESULT_VARIABLE rc)
file(WRITE "${ACTUAL}" "${out}")
file(WRITE "${ACTUAL}.stderr" "${err}")

# The first line of `got` that differs from `want`, as an error. Lines
# become list items, so the characters that lists treat specially (';' and
# the brackets that would join items) are swapped for unused ones first.
string(ASCII 1 semicolon)
string(ASCII 2 open)
string(ASCII 3 close)
function(to_lines text out)
  string(REPLACE ";" "${semicolon}" text "${text}")
  string(REPLACE "[" "${open}" text "${text}")
  string(REPLACE "]" "${close}" text "${text}")
  string(REPLACE "\n" ";" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
function(line_at lines index out)
  set(text "(nothing)")
  list(LENGTH lines n)
  if(index LESS n)
    list(GET lines ${index} text)
    string(REPLACE "${semicolon}" ";" text "${text}")
    string(REPLACE "${open}" "[" text "${text}")
    string(REPLACE "${close}" "]" text "${text}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
function(first_difference what want got)
  to_lines("${want}" want_lines)
  to_lines("${got}" got_lines)
  list(LENGTH want_lines n_want)
  list(LENGTH got_lines n_got)
  set(line 0)
  while(line LESS n_want AND line LESS n_got)
    list(GET want_lines ${line} w)
    list(GET got_lines ${line} g)
    if(NOT w STREQUAL g)
      break()
    endif()
    math(EXPR line "${line} + 1")
  endwhile()
  math(EXPR number "${line} + 1")
  line_at("${want_lines}" ${line} w)
  line_at("${got_lines}" ${line} g)
  message(SEND_ERROR "${what} differs at line ${number}:\n"
                     "  expected: ${w}\n  got:      ${g}")
endfunction()

set(failed OFF)
if(NOT out STREQUAL EXPECTED_TEXT)
  first_difference("standard output" "${EXPECTED_TEXT}" "${out}")
  set(failed ON)
endif()
if(NOT err STREQUAL EXPECTED_STDERR_TEXT)
  first_difference("standard error" "${EXPECTED_STDERR_TEXT}" "${err}")
  set(failed ON)
endif()
if(NOT rc STREQUAL EXIT_CODE)
  message(SEND_ERROR "exit code ${rc}, expected ${EXIT_CODE}")
  set(failed ON)
endif()
if(failed)
  message(FATAL_ERROR "${PROGRAM} ${ARGS}: what it printed is in ${ACTUAL} "
                      "(standard error in ${ACTUAL}.stderr)")
endif()
