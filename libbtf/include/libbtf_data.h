/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef LIBBTF_DATA_H
#define LIBBTF_DATA_H
/* (to be filled by the module that implements it) */
#endif
