#!/bin/sh
# Stands in for a CUDA toolkit's ptxas: prints the --gpu-name part of
# `ptxas --help` in ptxas's format (for tests/lit/Tools/cuda-options.test).
cat <<'HELP'
--gpu-name <gpu name>                               (-arch)
        Specify name of NVIDIA GPU to generate code for.
        Allowed values for this option:  'compute_75','compute_80','lto_80',
        'sm_75','sm_80','sm_80a'.
        Default value:  'sm_75'.

--help                                              (-h)
        Print this help information on this tool.
HELP
