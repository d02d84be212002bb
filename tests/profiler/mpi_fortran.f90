! SPDX-License-Identifier: GPL-2.0-or-later
! mpi_fortran: the traffic of mpi_pingpong.c, and MPI-IO, from Fortran (use mpi; the same
! source is built with mpif.h and with mpi_f08 by tests/profiler.am: JS_F08 / JS_MPIFH).
! Ranks in pairs (0-1, 2-3, ...; an even number of ranks):
!  even rank: MPI_Send 10 x 1000 integers (4000 B) to rank+1; MPI_Recv 5 x 100 doubles (800 B).
!  odd rank:  the matching 10 MPI_Recv (4000 B) and 5 MPI_Send (800 B).
!  all: 3 MPI_Barrier; 2 MPI_Allreduce of 4 integers (16 B); 1 MPI_Bcast of 16 characters (16 B);
!  MPI-IO on the file named by the first argument: MPI_File_open, MPI_File_write_at of 1000
!  integers (4000 B) at rank*4000, MPI_File_read_at_all of the same, MPI_File_close.
! Per rank: coll calls 6, coll bytes 48; mpiio write 1 call 4000 B, read 1 call 4000 B (collective),
! meta 2 (open, close).
program mpi_fortran
#if defined(JS_F08)
  use mpi_f08
#elif !defined(JS_MPIFH)
  use mpi
#endif
  implicit none
#if defined(JS_MPIFH)
  include 'mpif.h'
#endif
  integer :: rank, size, i, peer, ibuf(1000), red(4), tot(4), mx(4), chk(1000)
  double precision :: dbuf(100)
  character(len=16) :: cbuf
  character(len=4096) :: path
#if defined(JS_F08)
  type(MPI_File) :: fh
  integer(kind=MPI_OFFSET_KIND) :: off
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
#define IERR
#define IERRC
#else
  integer :: fh, ierr
  integer(kind=MPI_OFFSET_KIND) :: off
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
#define IERR ierr
#define IERRC , ierr
#endif
  call get_command_argument(1, path)
  ibuf = rank
  dbuf = 0
  red = (/ 1, 2, 3, 4 /)
  cbuf = '0123456789abcdef'
  if (mod(rank, 2) == 0) then
    peer = rank + 1
  else
    peer = rank - 1
  end if
  call MPI_Barrier(MPI_COMM_WORLD IERRC)
  do i = 1, 10
    if (mod(rank, 2) == 0) then
      call MPI_Send(ibuf, 1000, MPI_INTEGER, peer, i, MPI_COMM_WORLD IERRC)
    else
      call MPI_Recv(ibuf, 1000, MPI_INTEGER, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE IERRC)
    end if
  end do
  do i = 1, 5
    if (mod(rank, 2) == 1) then
      call MPI_Send(dbuf, 100, MPI_DOUBLE_PRECISION, peer, 100 + i, MPI_COMM_WORLD IERRC)
    else
      call MPI_Recv(dbuf, 100, MPI_DOUBLE_PRECISION, peer, 100 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE IERRC)
    end if
  end do
  call MPI_Barrier(MPI_COMM_WORLD IERRC)
  call MPI_Allreduce(red, tot, 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD IERRC)
  call MPI_Allreduce(red, mx, 4, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD IERRC)
  call MPI_Bcast(cbuf, 16, MPI_CHARACTER, 0, MPI_COMM_WORLD IERRC)
  call MPI_Barrier(MPI_COMM_WORLD IERRC)
  ibuf = rank + 1
  off = int(rank, MPI_OFFSET_KIND) * 4000
  call MPI_File_open(MPI_COMM_WORLD, trim(path), MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh IERRC)
  call MPI_File_write_at(fh, off, ibuf, 1000, MPI_INTEGER, MPI_STATUS_IGNORE IERRC)
  call MPI_File_read_at_all(fh, off, chk, 1000, MPI_INTEGER, MPI_STATUS_IGNORE IERRC)
  call MPI_File_close(fh IERRC)
  if (tot(4) /= 4 * size .or. mx(4) /= 4 .or. cbuf(1:1) /= '0' .or. chk(1000) /= rank + 1) then
    call MPI_Abort(MPI_COMM_WORLD, 1 IERRC)
  end if
  call MPI_Finalize(IERR)
end program mpi_fortran
