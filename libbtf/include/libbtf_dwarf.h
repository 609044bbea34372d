/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef LIBBTF_DWARF_H
#define LIBBTF_DWARF_H
/* (to be filled by the module that implements it) */
#endif
