/* fuzz_vjournal.c - the verify journal reader (verify/vjournal.c, vjournal_load): any
 * bytes as a journal file (a memory file, nothing on disk), then every record found
 * looked up again (vjournal_find, vjournal_next), which must hold: the newest record of
 * a block is found at its own file id and offset. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "verify/vjournal.h"


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vjournal_map m;
	size_t i, off = 0;
	int fd = memfd_create("vjournal", MFD_CLOEXEC), rc;

	if (fd < 0)
		abort();
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);

		if (w <= 0)
			abort();
		off += (size_t)w;
	}
	rc = vjournal_load(fd, &m);
	close(fd);
	if (rc)
		return 0;
	FUZZ_ASSERT(m.n <= m.records);
	for (i = 0; i < m.n; i++) {
		const struct vjournal_rec *r = vjournal_find(&m, m.recs[i].file_id,
							     m.recs[i].offset);

		FUZZ_ASSERT(r && r->file_id == m.recs[i].file_id &&
			    r->offset == m.recs[i].offset);
		r = vjournal_next(&m, m.recs[i].file_id, m.recs[i].offset);
		FUZZ_ASSERT(r && r->file_id == m.recs[i].file_id);
	}
	vjournal_map_free(&m);
	return 0;
}
