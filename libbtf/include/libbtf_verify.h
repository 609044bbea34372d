/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef LIBBTF_VERIFY_H
#define LIBBTF_VERIFY_H
/* (to be filled by the module that implements it) */
#endif
