# install.mk - `make install` and `make uninstall`, included at the end of the
# Makefile (after mpi.mk: the MPI half is installed when mpicc is there).
#   make install PREFIX=/usr/local DESTDIR=
#     bin/optcast; lib/liboptcast.so.VERSION (+ the soname and dev links),
#     lib/liboptcast.a; include/optcast.h, optcast_rt.h, optcast_mpi.h,
#     include/optcast/*.h; lib/pkgconfig/optcast.pc; share/man/man1/optcast.1;
#     bash and zsh completion; with mpicc: lib/liboptcast_mpi.so (the PMPI
#     interposer) and lib/liboptcast_mpi.a (the MPI transport)
#   make uninstall PREFIX=... DESTDIR=...   removes exactly those files, then
#     the directories under PREFIX that this left empty
# The manual page and the completion scripts are written by the command
# from its own tables (optcast help --man, --completion bash|zsh).
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
INSTALL ?= install

build/optcast.1: build/optcast
	./build/optcast help --man > $@.tmp && mv $@.tmp $@
build/optcast.bash: build/optcast
	./build/optcast help --completion bash > $@.tmp && mv $@.tmp $@
build/_optcast: build/optcast
	./build/optcast help --completion zsh > $@.tmp && mv $@.tmp $@
# (rewritten on every install: PREFIX may differ from the last one).  Libs
# keeps the library even when it comes before the program's objects on the
# command line (`cc $(pkg-config --cflags --libs optcast) prog.c`): Debian's
# gcc links with --as-needed, which drops a library that nothing before it
# uses; --push-state/--pop-state confine the exception to liboptcast.
build/optcast.pc: FORCE
	@mkdir -p build
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
	  'Name: optcast' \
	  'Description: optimal collective communication schedules (LogP, postal, k-port, ring), their verifier and a collective runtime' \
	  'Version: $(VERSION)' 'Libs: -L$${libdir} -Wl,--push-state,--no-as-needed -loptcast -Wl,--pop-state' 'Libs.private: -lm -pthread' \
	  'Cflags: -I$${includedir}' > $@
FORCE:

HEADERS_TOP = optcast.h optcast_rt.h optcast_mpi.h
HEADERS_SUB = $(notdir $(wildcard include/optcast/*.h))
INSTALL_MPI = $(if $(HAVE_MPICC),$(MPIDIR)/liboptcast_mpi.so $(MPIPIC)/liboptcast_mpi.a)
# every file install writes, under $(DESTDIR)
INSTALLED = $(BINDIR)/optcast $(LIBDIR)/liboptcast.a $(LIBDIR)/liboptcast.so.$(VERSION) \
  $(LIBDIR)/liboptcast.so.$(SOVERSION) $(LIBDIR)/liboptcast.so \
  $(HEADERS_TOP:%=$(INCLUDEDIR)/%) $(HEADERS_SUB:%=$(INCLUDEDIR)/optcast/%) \
  $(LIBDIR)/pkgconfig/optcast.pc $(MANDIR)/man1/optcast.1 $(BASHCOMPDIR)/optcast \
  $(ZSHCOMPDIR)/_optcast $(LIBDIR)/liboptcast_mpi.so $(LIBDIR)/liboptcast_mpi.a
INSTALL_DIRS = $(BINDIR) $(LIBDIR)/pkgconfig $(INCLUDEDIR)/optcast $(MANDIR)/man1 \
  $(BASHCOMPDIR) $(ZSHCOMPDIR)

install: build/optcast build/liboptcast.a build/liboptcast.so.$(VERSION) build/optcast.1 \
         build/optcast.bash build/_optcast build/optcast.pc $(INSTALL_MPI)
	@[ -n "$(PREFIX)" ] || { echo "install: PREFIX is empty" >&2; exit 2; }
	$(INSTALL) -d $(INSTALL_DIRS:%=$(DESTDIR)%) $(DESTDIR)$(LIBDIR)
	$(INSTALL) -m 755 build/optcast $(DESTDIR)$(BINDIR)/optcast
	$(INSTALL) -m 644 build/liboptcast.a $(DESTDIR)$(LIBDIR)/liboptcast.a
	$(INSTALL) -m 755 build/liboptcast.so.$(VERSION) $(DESTDIR)$(LIBDIR)/liboptcast.so.$(VERSION)
	ln -sf liboptcast.so.$(VERSION) $(DESTDIR)$(LIBDIR)/liboptcast.so.$(SOVERSION)
	ln -sf liboptcast.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/liboptcast.so
	$(INSTALL) -m 644 $(HEADERS_TOP:%=include/%) $(DESTDIR)$(INCLUDEDIR)/
	$(INSTALL) -m 644 $(HEADERS_SUB:%=include/optcast/%) $(DESTDIR)$(INCLUDEDIR)/optcast/
	$(INSTALL) -m 644 build/optcast.pc $(DESTDIR)$(LIBDIR)/pkgconfig/optcast.pc
	$(INSTALL) -m 644 build/optcast.1 $(DESTDIR)$(MANDIR)/man1/optcast.1
	$(INSTALL) -m 644 build/optcast.bash $(DESTDIR)$(BASHCOMPDIR)/optcast
	$(INSTALL) -m 644 build/_optcast $(DESTDIR)$(ZSHCOMPDIR)/_optcast
ifneq ($(HAVE_MPICC),)
	$(INSTALL) -m 755 $(MPIDIR)/liboptcast_mpi.so $(DESTDIR)$(LIBDIR)/liboptcast_mpi.so
	$(INSTALL) -m 644 $(MPIPIC)/liboptcast_mpi.a $(DESTDIR)$(LIBDIR)/liboptcast_mpi.a
endif

uninstall:
	@[ -n "$(PREFIX)" ] || { echo "uninstall: PREFIX is empty" >&2; exit 2; }
	rm -f $(INSTALLED:%=$(DESTDIR)%)
	@for d in $(INSTALL_DIRS:%=$(DESTDIR)%) $(DESTDIR)$(LIBDIR); do \
	  while [ "$$d" != "$(DESTDIR)$(PREFIX)" ] && [ "$$d" != / ] && [ -d "$$d" ] && \
	        rmdir "$$d" 2>/dev/null; do d=$$(dirname "$$d"); done; \
	done

.PHONY: install uninstall FORCE
