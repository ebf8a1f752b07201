# Runs draw_devices in an empty folder and checks what it drew: the placed
# graph names the three devices seed 001's towers use, the partitions hold
# the _Send/_Recv pairs of the cut, and both traces show each device.
#   cmake -DPROGRAM=<draw_devices> -DDIR=<folder> -P check_draw_devices.cmake
file(REMOVE_RECURSE "${DIR}")
execute_process(COMMAND "${PROGRAM}" "${DIR}" OUTPUT_VARIABLE out
                ERROR_VARIABLE err RESULT_VARIABLE rc)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "draw_devices failed (${rc})")
endif()
if(NOT out MATCHES "\\[\\[ 44\\.  56\\.\\]\n \\[ 98\\. 128\\.\\]\\]")
  message(FATAL_ERROR "draw_devices did not print seed 001's sum")
endif()

# check(<file> <what it must contain>...): each a regular expression, with
# no square brackets standing alone (a list would not split at them).
function(check file)
  if(NOT EXISTS "${DIR}/${file}")
    message(FATAL_ERROR "draw_devices wrote no ${file}")
  endif()
  file(READ "${DIR}/${file}" text)
  foreach(pattern IN LISTS ARGN)
    if(NOT text MATCHES "${pattern}")
      message(FATAL_ERROR "${file} lacks ${pattern}")
    endif()
  endforeach()
endfunction()

set(prefix "/job:localhost/replica:0/task:0/device:")
foreach(device GPU:2 GPU:3 CPU:0)
  check(placed.dot "\"${prefix}${device}\", shape=box, style=filled")
  check(partitioned.dot "label=\"${prefix}${device}\"")
  check(timeline.json "\"${prefix}${device} Compute\"")
  check(timeline.svg ">${device}, thread [0-9]+<")
endforeach()
check(placed.dot "^digraph \"placed\"" "cluster_devices"
      "\"MatMul\" .label=\"MatMul\\\\nMatMul\", style=filled, fillcolor=\"#a6cee3\""
      "\"AddN\" .label=\"AddN\\\\nAddN\", style=filled, fillcolor=\"#fb9a99\"")
# Each tower's product crosses to the CPU once: a _Send on its GPU, a _Recv
# on the CPU, joined by a dashed arrow labelled with the tensor.
# A device has one colour in both drawings.
check(partitioned.dot
      "label=\"${prefix}GPU:2\";\n    style=filled; fillcolor=\"#a6cee3\";"
      "label=\"${prefix}CPU:0\";\n    style=filled; fillcolor=\"#fb9a99\";")
check(partitioned.dot "^digraph \"partitions\""
      "\\\\n_Send\", shape=cds" "\\\\n_Recv\", shape=cds"
      "-> \"[^\"]*\" .style=dashed, color=\"#555555\", label=\"MatMul:0\"."
      "-> \"[^\"]*\" .style=dashed, color=\"#555555\", label=\"MatMul_1:0\"."
      "-> \"client\" .style=dashed, label=\"AddN:0\".")
check(timeline.json "\"traceEvents\"" "\"name\": \"MatMul\"" "\"op\": \"AddN\"")
check(timeline.svg "^<svg " ">MatMul<" ">AddN<" "microseconds" "</svg>\n$")
