# mpienv.sh -- the environment of the tests that start Open MPI programs
# (the emulator's, sibyl calibrate's).  Source after lib.sh.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Keep Open MPI quiet and local in test runs.
export OMPI_MCA_btl_base_warn_component_unused=0
export OMPI_MCA_rmaps_base_oversubscribe=1
# Sanitizer builds: keep Open MPI's components loaded at exit so their
# allocations can be attributed, and suppress those of Open MPI itself.
# The emulator's runtime leaves MPI_Init's and MPI_Finalize's allocations
# out of the leak check and keeps every library mapped
# (emulator/transport.c), so the first frame of what Open MPI's threads
# allocate names its module: the default, fast unwinding is enough (a
# full unwind at every allocation through Open MPI, which has no frame
# pointers, doubled the time of a sanitizer build's emulation).
export OMPI_MCA_mca_base_component_disable_dlclose=1
export LSAN_OPTIONS="suppressions=$SIBYL_SRCDIR/tests/data/lsan-openmpi.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
