// The MPI datatype of an element type.
#pragma once

#include <mpi.h>

namespace tessera::mpi::detail {

template <class T>
MPI_Datatype mpi_type();
template <>
inline MPI_Datatype mpi_type<float>() {
  return MPI_FLOAT;
}
template <>
inline MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}

}  // namespace tessera::mpi::detail
