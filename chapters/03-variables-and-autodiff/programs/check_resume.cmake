# Runs seed_single_machine twice in an empty folder and checks that the second
# run restored the first run's newest checkpoint instead of starting over.
#   cmake -DPROGRAM=<seed_single_machine> -DDIR=<folder> -P check_resume.cmake
file(REMOVE_RECURSE "${DIR}")
foreach(run first second)
  execute_process(COMMAND "${PROGRAM}" "${DIR}" OUTPUT_VARIABLE out
                  ERROR_VARIABLE err RESULT_VARIABLE rc)
  message("--- ${run} run\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the ${run} run failed (${rc})")
  endif()
  set(${run} "${out}")
endforeach()
if(NOT first MATCHES "Test accuracy after 1000 steps: 0\\.8")
  message(FATAL_ERROR "the first run did not reach 0.8 after 1000 steps")
endif()
if(NOT second MATCHES "Restored [^\n]*mnist\\.ckpt at step 901\n")
  message(FATAL_ERROR "the second run did not restore the checkpoint of step 901")
endif()
if(NOT second MATCHES "Test accuracy after 1901 steps: 0\\.8")
  message(FATAL_ERROR "the second run did not train on to step 1901")
endif()
