"""Import semantics: what ``import`` and ``from ... import`` bind, and reading an import
of the user's code lazily (see :mod:`gradguard.analysis.imports` for loading a module)."""

from __future__ import annotations

import libcst as cst

from gradguard.analysis.frames import dotted, is_global
from gradguard.analysis.imports import load
from gradguard.analysis.values import UNKNOWN, Binding, Lazy, LazyJoin, Val, join_all


class ImportSemantics:
    """The import statements of the interpreter (a mixin of
    :class:`~gradguard.analysis.interp.Interpreter`)."""

    def exec_import(self, small: cst.Import | cst.ImportFrom) -> None:
        """Bind what an ``import`` / ``from ... import`` statement imports."""
        if isinstance(small, cst.Import):
            for alias in small.names:
                path = dotted(alias.name)
                if alias.asname is not None or "." not in path:
                    local = alias.asname.name.value if alias.asname is not None else path
                    self.bind(local, self._imported(path, 0, None, Val("ns", ref=path)))
                else:
                    # ``import a.b.c`` binds ``a``; each module is an attribute of its parent
                    parts = path.split(".")
                    top = self._user_module(parts[0], 0, None)
                    self.bind(parts[0], top or Val("ns", ref=parts[0]))
                    parent = top
                    for i in range(1, len(parts) if top is not None else 0):
                        sub = self._user_module(".".join(parts[:i + 1]), 0, None)
                        if sub is None:
                            break
                        key = (parent.ref, parts[i])
                        if key not in self.state.env:
                            self.state.env[key] = Binding(sub, self.frame.stmt)
                        parent = sub
        elif isinstance(small, cst.ImportFrom):
            mod = dotted(small.module) if small.module is not None else ""
            level = len(small.relative)
            if isinstance(small.names, cst.ImportStar):
                star = self._user_module(mod, level, None)
                if star is not None:
                    self.touched.add(star.ref)
                exported = self.loaded[star.ref].exports if star is not None else None
                for key, b in list(self.state.env.items()) if star else ():
                    if key[0] == star.ref and (key[1] in exported if exported is not None
                                               else not key[1].startswith("_")):
                        self.bind(key[1], b.val)
            else:
                for alias in small.names:
                    name = dotted(alias.name)
                    local = alias.asname.name.value if alias.asname else name
                    self.bind(local, self._imported(
                        mod, level, name, Val("ns", ref=f"{mod}.{name}" if mod else name)))

    def _imported(self, module: str, level: int, name: str | None, fallback: Val) -> Val:
        """What an import binds: ``fallback`` (a ``ns`` value: its dotted path) for what
        cannot be the user's code (by the file system: no look-up), else a ``lazy`` value
        that :meth:`read` finds and loads when the name is first read."""
        if self.imports is None or not self.imports.may_be_local(module, level):
            return fallback
        return Val("lazy", ref=Lazy(module, level, name, self.imports, self.import_depth,
                                    fallback))

    def read(self, key) -> Val:
        """The value bound at ``key``; an import not read yet is looked up now and the
        binding replaced by what it names."""
        if key[0] != self.gid and is_global(key[0]):
            self.touched.add(key[0])
        b = self.state.env[key]
        if b.val.kind != "lazy":
            return b.val
        val = self._forced(b.val)
        self.state.env[key] = Binding(val, b.stmt)
        return val

    def _forced(self, val: Val, seen: frozenset = frozenset()) -> Val:
        """What a ``lazy`` value names (any other value: itself); ``seen``: the imports
        being read (a cycle of re-exports names nothing known)."""
        if val.kind != "lazy":
            return val
        if isinstance(val.ref, LazyJoin):
            return join_all(self._forced(o, seen) for o in val.ref.options)
        lazy = val.ref
        if lazy in seen:
            return UNKNOWN
        try:
            found = self._user_module(lazy.module, lazy.level, lazy.name, lazy.imports,
                                      lazy.depth)
        except RecursionError:  # read this deep in inlined calls, its body is too deep
            return UNKNOWN
        return self._forced(found, seen | {lazy}) if found is not None else lazy.fallback

    def _user_module(self, module: str, level: int, name: str | None,
                     imports=None, depth: int | None = None) -> Val | None:
        """What an import names when it is a module of the user's (see
        :mod:`gradguard.analysis.imports`), looked up with ``imports`` (default this
        module's) ``depth`` imports deep: the imported definition, or the module itself
        (a ``ns`` value whose ref is its global frame); None for anything else."""
        imports = imports if imports is not None else self.imports
        if imports is None:
            return None
        depth = self.import_depth if depth is None else depth
        key = (imports, module, level, depth)
        if key not in self.found_modules:  # (texts do not change during one analysis)
            target = imports.resolve(module, level)
            self.found_modules[key] = load(target, imports, depth) if target is not None \
                else None
        loaded = self.found_modules[key]
        if loaded is None:
            return None
        env = self.state.env
        for other in loaded.loaded.values():
            # a state holds a module's names once it has its ``__file__`` (a state copied
            # before the module was read, in a branch or another root, does not)
            if (other.gid, "__file__") in env:
                continue
            env.update((k, v) for k, v in other.env.items() if k not in env)
            env[(other.gid, "__file__")] = Binding(Val("scalar", ref=other.path), None)
            if other.grad_off is not None:
                # its body turned grad mode off for the whole thread (PWC-Net's
                # ``torch.set_grad_enabled(False)``): so it is here, from now on
                self.no_grad = self.no_grad or 1
                if self.no_grad_sites:
                    self.no_grad_sites[-1] = other.grad_off
                else:
                    self.no_grad_sites.append(other.grad_off)
            if other.gid in self.loaded:
                continue
            self.loaded[other.gid] = other
            self.classes.update(other.classes)
            self.method_gids.update(other.method_gids)
            self.inplace_ctors.update(other.inplace_ctors)
            for k, v in other.submodules.items():
                self.submodules.setdefault(k, set()).update(v)
        self.deps |= loaded.deps
        self.touched.add(loaded.gid)
        if name is None:
            return Val("ns", ref=loaded.gid)
        key = (loaded.gid, name)
        if key in self.state.env:
            return self.read(key)
        # ``from pkg import mod``: a submodule the package's body does not bind
        return self._user_module(f"{module}.{name}" if module else name, level, None,
                                 imports, depth)
