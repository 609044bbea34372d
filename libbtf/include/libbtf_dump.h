/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef LIBBTF_DUMP_H
#define LIBBTF_DUMP_H
/* (to be filled by the module that implements it) */
#endif
