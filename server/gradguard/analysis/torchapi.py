"""What the engine knows about PyTorch's API, as plain tables (never imports torch).

The torch facts (which operations save what for backward, which never carry a graph,
factories, in-place and recurrent modules, optimizers) are computed from
``data/torch_ops.json`` (see ``torchdb.py``), generated from PyTorch's own metadata
(native_functions.yaml, derivatives.yaml, torch.nn / torch.optim introspection) by
``scripts/gen_torch_tables.py``. The hand lists below are what that metadata cannot say
(Python-level Tensor methods, nn.Module methods, wrapper APIs), each with its source.

Other sources: the autograd mechanics notes (https://pytorch.org/docs/stable/notes/autograd.html),
``torch.Tensor.backward`` / ``torch.autograd.backward`` / ``torch.autograd.grad``
(https://pytorch.org/docs/stable/autograd.html).
"""

from __future__ import annotations

from gradguard.analysis import torchdb as _db


def _fn_graph(e: dict) -> bool:
    """Whether a torch.nn.functional function can return a graph: its probed call, else
    the op it wraps; unknown: True."""
    if "probe" in e:
        return bool(e["probe"]["graph"])
    if "aten" in e:
        return _db.carries_graph(e["aten"]) is not False
    return True


def _names():
    ops, fns = _db.data()["ops"], _db.data()["functional"]
    methods = [n for n, e in ops.items() if e.get("method") and not n.endswith("_")]
    # what a call ``torch.X`` / ``torch.nn.functional.X`` / ``torch.linalg.X`` reaches:
    # the engine matches the last name, so every source of a name must agree. Each source
    # is (what it saves, whether it can carry a graph, whether it is differentiable).
    functions: dict[str, list] = {}
    for n, e in ops.items():
        if n.endswith("_"):
            continue
        src = (_db.op_saved(n), _db.carries_graph(n) is not False, _differentiable(n))
        if e.get("fn"):
            functions.setdefault(n, []).append(src)
        for mod in e.get("module", ()):
            # torch.linalg.svd is linalg_svd, torch.special.erf special_erf, F.elu elu
            functions.setdefault(n.removeprefix(mod + "_"), []).append(src)
    for n, e in fns.items():
        if not n.endswith("_"):
            g = _fn_graph(e)
            functions.setdefault(n, []).append((_db.functional_saved(n), g, g))
    return methods, functions


def _kind(sources):
    """One classification for a name from all its sources: True wins over "output",
    "output" over False; unknown sources are skipped (all unknown: None)."""
    kinds = {_db.saving_kind(s) for s, _, _ in sources} - {None}
    if not kinds:
        return None
    return True if True in kinds else "output" if "output" in kinds else False


def _differentiable(name: str) -> bool:
    """Some overload of op ``name`` has a formula, or decomposes into ops that do (and its
    probed call, if any, carried a graph)."""
    e = _db.op(name)
    d = e["diff"] if isinstance(e["diff"], list) else [e["diff"]]
    return "formula" in d or ("composite" in d and _db.carries_graph(name) is not False)


_METHODS, _FUNCTIONS = _names()

# Attribute reads that cut the graph (``t.data`` is the tensor without history).
CUT_ATTRIBUTES = frozenset({"data", "shape", "dtype", "device", "grad", "requires_grad",
                            "is_leaf", "ndim", "grad_fn"})

# Builtins whose result is a Python scalar or container of scalars.
CUT_BUILTINS = frozenset({"float", "int", "bool", "len", "str", "repr", "print", "round",
                          "isinstance", "hash", "id", "range", "format", "type"})

# Tensor methods whose result never carries the autograd graph. From the table: every
# overload non-differentiable (comparisons, argmax, nonzero, any/all, isnan..., derivatives.yaml
# ``output_differentiability: [False]`` and gen_variable_type's DONT_REQUIRE_DERIVATIVE) or
# returning no tensor (item, size, dim, numel, stride, data_ptr...). By hand, what
# native_functions.yaml does not hold:
# (detach has no formula, autograd's VariableTypeManual.cpp handles it: the table has it
# from its probed call, whose result did not require grad.)
CUT_METHODS_HAND = frozenset({
    # Python-level Tensor methods (torch/csrc/autograd/python_variable_methods.cpp,
    # torch/_tensor.py): leave tensor land, or convert to an integer/bool dtype
    "tolist", "numpy", "long", "int", "bool", "short", "byte", "char", "nelement",
    "register_hook", "size", "stride", "data_ptr", "element_size",
    # ``ndimension`` is ``dim`` under another name ({"ndimension", THPVariable_dim})
    "ndimension",
    # x.new_tensor(data): a new constant with x's dtype and device (python_variable_methods.cpp
    # THPVariable_new_tensor; the new_zeros/new_ones/new_full/new_empty the table has)
    "new_tensor",
    # torch.distributions: Distribution.sample() runs under torch.no_grad()
    "sample",
    # nn.Module methods (a receiver the engine could not tell is a model)
    "state_dict", "parameters", "named_parameters", "zero_grad", "train", "eval",
})
# ``t[idx]`` with a tensor or list index (advanced indexing) runs aten ``index``, whose
# backward saves the indices (a second backward through it raises); basic indexing
# (slices, integers) runs ``select`` / ``slice``: views that save no tensor.
INDEX_SAVES_INDICES = "indices" in (_db.op_saved("index") or ())

CUT_METHODS = frozenset(
    {m for m in _METHODS if _db.carries_graph(m) is False}) | CUT_METHODS_HAND

# torch.* (and torch.nn.functional.*, torch.linalg.*...) functions whose result carries no
# graph (unless built with requires_grad=True). From the table: factories (no tensor
# input, a tensor out: zeros, arange, randn..., plus torch.tensor / as_tensor / from_numpy
# of torch/csrc/utils/tensor_new.cpp) and functions no overload of which is differentiable
# (zeros_like, argmax, multinomial, one_hot, eq...). By hand, Python-level torch API
# (torch/random.py, torch/autograd/grad_mode.py, torch/__init__.py):
FACTORIES_HAND = frozenset({"manual_seed", "no_grad", "inference_mode", "enable_grad",
                            "set_grad_enabled", "device", "Generator", "is_tensor", "numel"})
# torch.Tensor and the legacy typed constructors (torch_ops.json "legacy_constructors",
# from torch._tensor_classes: torch.FloatTensor...).
LEGACY_CONSTRUCTORS = frozenset(_db.data()["legacy_constructors"])
FACTORIES = _db.factories() | frozenset(
    n for n, srcs in _FUNCTIONS.items() if not any(g for _, g, _ in srcs)) | FACTORIES_HAND | \
    LEGACY_CONSTRUCTORS

# Factories that return their tensor argument itself when it already is one (with its
# graph), and a new tensor of the values of a sequence: torch.as_tensor / torch.asarray,
# and the legacy constructors (an alias of a tensor: torch/csrc/utils/tensor_new.cpp).
ALIASING_FACTORIES = frozenset({"as_tensor", "asarray"}) | LEGACY_CONSTRUCTORS

# Operations that save no tensor for backward (their grad_fn needs only shapes or
# scalars), so walking their freed node again raises nothing: AddBackward0, SubBackward0,
# NegBackward0, ViewBackward0, UnsqueezeBackward0, ... From the table: derivatives.yaml
# formulas that use only ``grad``, sizes and scalars, and composite operators whose probed
# call saved nothing (reshape, flatten, contiguous, to, hstack...). By hand: Tensor methods
# of python_variable_methods.cpp that are ``to()`` conversions (``to`` saves nothing).
NON_SAVING_METHODS_HAND = frozenset({"float", "double", "half", "cuda", "cpu", "type"})
NON_SAVING_METHODS = frozenset(
    m for m in _METHODS if _db.saving_kind(_db.op_saved(m)) is False and _differentiable(m)
) | NON_SAVING_METHODS_HAND
NON_SAVING_FUNCTIONS = frozenset(
    n for n, srcs in _FUNCTIONS.items() if _kind(srcs) is False and all(d for _, _, d in srcs))

# The namespaces whose functions the table describes (``torch.X``, ``torch.nn.functional.X``
# and the operator modules of native_functions.yaml: ``torch.linalg.X``, ``torch.fft.X``...).
# A function elsewhere in torch (``torch.distributed.nn.all_gather``, an autograd.Function
# whose backward saves nothing) or not in the table is not known to save a tensor.
TABLE_NAMESPACES = frozenset({"torch", "torch.nn.functional"} | {
    f"torch.{m}" for e in _db.data()["ops"].values() for m in e.get("module", ()) if m != "nn"})


def known_function(path: str) -> bool:
    """Whether the table describes the torch function at the dotted ``path``."""
    namespace, _, name = path.rpartition(".")
    return namespace in TABLE_NAMESPACES and name in _FUNCTIONS

# Tensor methods and attributes that return a view: the result shares the storage (and
# the version counter) of the tensor they are called on (torch.Tensor views,
# https://pytorch.org/docs/stable/tensor_view.html). ``reshape``, ``flatten`` and
# ``contiguous`` copy or not depending on strides, so they are not listed.
VIEW_METHODS = frozenset({"view", "view_as", "unsqueeze", "squeeze", "transpose", "permute",
                          "t", "expand", "expand_as", "narrow", "movedim", "moveaxis",
                          "select", "diagonal", "unfold", "swapaxes", "swapdims", "T", "mT",
                          "H", "real", "imag",
                          # "Returned Tensor shares the same storage with the original one.
                          # In-place modifications on either of them will be seen, and may
                          # trigger errors in correctness checks." (Tensor.detach's docs)
                          "detach"})

# Tensor methods without a graph that make a new tensor (``x.new_zeros(...)``,
# ``x.argmax()``, ``x > 0``): a storage of their own, whose in-place changes autograd
# tracks like any tensor's.
NEW_TENSOR_METHODS = frozenset({m for m in _METHODS if _db.is_fresh(m)} | {"new_tensor"})

# Operations whose backward uses their *output* and none of their inputs (so an in-place
# change of the output breaks them): SigmoidBackward0, TanhBackward0, ExpBackward0,
# ReluBackward0, SoftmaxBackward0 ... save ``result`` in derivatives.yaml (or, for
# composites such as softmax, the node their call recorded does).
OUTPUT_SAVING = frozenset(
    {m for m in _METHODS if _db.saving_kind(_db.op_saved(m)) == "output" and
     _differentiable(m)} |
    {n for n, srcs in _FUNCTIONS.items() if _kind(srcs) == "output" and all(d for _, _, d in srcs)})

# Tensor methods whose backward keeps none of the receiver (derivatives.yaml saves only
# other arguments: ``x.masked_fill(mask, v)`` its mask, ``x.index_select(d, i)`` its index,
# ``b.addmm(m1, m2)`` the two matrices): an in-place change of the receiver after the call
# breaks nothing of it.
RECEIVER_NOT_SAVED = frozenset(
    m for m in _METHODS if _db.saving_kind(_db.op_saved(m)) is True and
    "self" not in _db.op_saved(m) and not _db.op_saved(m) & _db.OUTPUT_NAMES and
    _differentiable(m))


# Tensor methods whose tensor argument gives only a dtype, a device or a shape: the result
# carries the receiver's graph, never the argument's (``y.type_as(x)``, ``y.view_as(x)``,
# ``y.expand_as(x)``). From the table (each probed with only the argument requiring grad);
# by hand, ``type(dtype)``: a ``to()`` conversion of python_variable_methods.cpp.
ARGUMENT_GIVES_NO_GRAPH = frozenset(
    m for m in _METHODS if (_db.op(m).get("probe") or {}).get("other_nograd")) | {"type"}


def _saves_output_too(name: str) -> bool:
    """Every overload of op ``name`` has a derivatives.yaml formula that uses its result,
    and one uses an input."""
    e, saved = _db.op(name), _db.op_saved(name)
    return e is not None and e.get("result_saved") == 1 and saved is not None and \
        bool(saved - _db.OUTPUT_NAMES)


# Operations whose backward uses their output *and* inputs (an in-place change of either
# breaks them): LinalgVectorNormBackward0 (``torch.norm``), ProdBackward0,
# CumprodBackward0... save ``result`` and ``self`` in derivatives.yaml (formulas only, not a
# composite's probed call, whose recorded nodes may save another node's result).
OUTPUT_AND_INPUT_SAVING = frozenset(
    name for n, e in _db.data()["ops"].items() if not n.endswith("_") and _saves_output_too(n)
    for name in [n, *(n.removeprefix(m + "_") for m in e.get("module", ()))]
    if name not in _db.data()["functional"])

# In-place tensor methods that do not change values autograd saved.
NOT_INPLACE = frozenset({"detach_", "requires_grad_", "retain_grad_", "share_memory_",
                         "register_hook_", "zero_grad_"})

# Modules that change their input in place when built with inplace=True (torch.nn
# classes whose __init__ takes ``inplace``).
INPLACE_MODULES = frozenset(n for n, e in _db.modules().items() if e.get("inplace"))

# When a module's call saves its parameters for backward (so that an optimizer step
# between the forward and the backward makes autograd's version check fail): "always"
# (convolution, batch_norm, recurrent modules), "grad_input" only when an input requires
# grad (addmm saves the weight only for its input's gradient: a network's first Linear on
# data does not), "never" (embedding saves its indices). From the table (probed at
# generation time); a module not there is taken to save them.
PARAMS_SAVED = {n: e["saves_params"] for n, e in _db.modules().items() if e.get("saves_params")}
# torch.nn modules that never have parameters (pooling, activations, dropout, Flatten...;
# not containers, not InstanceNorm, whose affine=True adds some): a graph through one
# reaches no parameter, and an optimizer step changes nothing it saved. From the table
# (instances probed at generation time with each bool option flipped).
PARAMLESS_MODULES = frozenset(n for n, e in _db.modules().items() if e.get("paramless"))
# modules that have parameters however their bool options are set (Linear, Conv2d,
# Embedding, LSTM...; not LayerNorm, whose elementwise_affine=False leaves it none)
ALWAYS_PARAMS_MODULES = frozenset(n for n, e in _db.modules().items() if e.get("always_params"))

# the names of a torch.nn module's own parameters (Linear: weight, bias), over its builds
# with each bool option flipped; not for modules with submodules or recurrent ones. From
# the table (named_parameters(recurse=False) at generation time).
PARAM_NAMES = {n: frozenset(e["param_names"]) for n, e in _db.modules().items()
               if e.get("param_names")}

# torch.nn modules whose forward changes their own parameters in place when built with
# one of these options (Embedding's max_norm: embedding_renorm_ of the rows it looks up,
# "Embedding's forward method will modify the weight tensor in-place"). From the table
# (the parameters' version counters probed at generation time).
PARAMS_CHANGED_WITH = {n: frozenset(e["changes_params_with"]) for n, e in _db.modules().items()
                       if e.get("changes_params_with")}

# isinstance(m, nn.X) of a torch.nn module: the torch.nn classes each is an instance of
# (itself, nn.Module, and the public classes it derives from: LSTM an RNNBase, LazyLinear a
# Linear). From the table (issubclass at generation time).
NN_CLASSES = {n: frozenset({n, "Module", *e.get("bases", ())}) for n, e in _db.modules().items()}

# Calls that make a leaf that requires grad.
LEAF_CONSTRUCTORS = frozenset({"Parameter"})

# Modules (torch.nn.X) whose call returns ``(output, hidden)`` where hidden is a tensor
# (RNN, GRU) or a tuple (LSTM): used to write a correct detach fix for the hidden state.
# Cells (RNNCell, GRUCell: h; LSTMCell: (h, c)) map to None: the engine treats their
# result as the hidden state itself. From the table (one call of each at generation time).
RECURRENT_MODULES = {
    n: (("tensor" if e["returns"][1] == "tensor" else "tuple")
        if e["recurrent"] == "module" else None)
    for n, e in _db.modules().items() if e.get("recurrent")}

# Optimizer classes: ``opt.step(closure)`` calls the closure, LBFGS many times. From the
# table: torch.optim's subclasses of torch.optim.Optimizer (and Optimizer).
OPTIMIZER_SUFFIXES = _db.optimizers()
# torch.nn.utils functions that return the module they are given (weight_norm(nn.Linear(...)))
MODULE_WRAPPERS = frozenset(_db.data()["module_wrappers"])
# Attributes every nn.Module has that hold a Python scalar (``self.training``): never a
# submodule (torch_ops.json "module_scalars", from vars(nn.Module())).
MODULE_SCALARS = frozenset(_db.data()["module_scalars"])

# the methods of dict and list a tensor does not have (torch_ops.json "container_methods",
# from dir(torch.Tensor)): what a model of unknown class returned and has them called is
# a dict or a list
CONTAINER_METHODS = frozenset(_db.data()["container_methods"])

# Methods that walk and free the graph of their receiver (Tensor.backward) or of their
# first argument (wrappers: accelerate's Accelerator.backward, Lightning's
# manual_backward, Fabric.backward, DeepSpeed engine.backward).
BACKWARD_METHODS = frozenset({"backward", "manual_backward"})

# nn.Module methods that neither compute with the parameters nor hand them on (so a
# module's parameters stay where the engine sees them: GG402). torch/nn/modules/module.py.
MODULE_METHODS_KEEPING_PARAMETERS = frozenset({
    "zero_grad", "state_dict", "load_state_dict", "apply", "named_modules",
    "named_children", "modules", "children", "buffers", "named_buffers", "extra_repr",
    "share_memory", "type", "requires_grad_", "train", "eval", "to", "cuda", "cpu"})

# Positional index of retain_graph / create_graph in each backward-like API.
# Tensor.backward(gradient=None, retain_graph=None, create_graph=False, inputs=None)
# torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False)
# torch.autograd.grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False)
RETAIN_POSITION = {"tensor.backward": (1, 2), "autograd.backward": (2, 3),
                   "autograd.grad": (3, 4), "wrapper.backward": (None, None)}

# Context managers and decorators under which no graph is recorded.
NO_GRAD_CONTEXTS = frozenset({"no_grad", "inference_mode"})

# The ops autocast runs in lower precision (docs/source/amp.md, "Autocast Op Reference":
# "CUDA Ops that can autocast to float16" and "CPU Ops that can autocast to bfloat16"):
# in an autocast-enabled region they cast their floating-point inputs (parameters
# included) to that dtype first, so what their backward saves are those copies, which
# an in-place change of the inputs or an optimizer step does not touch.
AUTOCAST_LOWER_OPS = frozenset({
    "__matmul__", "matmul", "mm", "mv", "bmm", "addmm", "addmv", "addr", "addbmm", "baddbmm",
    "chain_matmul", "multi_dot", "linalg_vecdot", "linear", "prelu", "conv1d", "conv2d",
    "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "conv_tbc",
    "scaled_dot_product_attention"})
# the torch.nn modules whose forward is one of those ops
AUTOCAST_LOWER_MODULES = frozenset({
    "Linear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
    "ConvTranspose3d", "PReLU", "RNNCell", "LSTMCell", "GRUCell"})

# Methods only an nn.Module has: a value they are called on is a model.
MODULE_METHODS = frozenset({"parameters", "named_parameters", "zero_grad", "state_dict",
                            "load_state_dict", "modules", "named_modules", "children",
                            "train", "eval", "apply", "register_buffer"})

# Base classes that make a class an nn.Module (a call runs forward and builds a graph).
MODULE_BASES = frozenset({"Module", "LightningModule", "Sequential", "ModuleList",
                          "ModuleDict"})

# Lightning's LightningModule (the import paths it is exported under) and the hooks its
# Trainer runs with gradients disabled: "the model is put in eval mode and PyTorch
# gradients are disabled" (validation_step, test_step), predict_step under
# torch.inference_mode() (Trainer(inference_mode=True), the default). From the Lightning
# docs (LightningModule, Trainer); Lightning is not torch, so this is a hand list.
LIGHTNING_MODULES = frozenset({
    "pytorch_lightning.LightningModule", "pytorch_lightning.core.LightningModule",
    "pytorch_lightning.core.module.LightningModule", "lightning.LightningModule",
    "lightning.pytorch.LightningModule", "lightning.pytorch.core.LightningModule",
    "lightning.pytorch.core.module.LightningModule"})
LIGHTNING_NO_GRAD_HOOKS = frozenset({"validation_step", "test_step", "predict_step"})

# Python container methods that add their argument to the container (list, deque, dict,
# set, queue.Queue); LIST_ADDS are those only a list or deque has.
CONTAINER_ADDS = frozenset({"append", "extend", "insert", "add", "update", "appendleft", "put"})
LIST_ADDS = frozenset({"append", "extend", "insert", "appendleft"})

# Cheap text test: a block without any of these tokens cannot free a graph (nor
# discard a detach(), nor run an evaluation loop).
TRIGGER_TOKENS = ("backward", "autograd", ".grad(", ".step(", ".detach()", ".eval()")

# What each torch.nn module's forward saves for backward, of the tensors the program
# holds (generated: scripts/gen_torch_tables.py probes each module under torch by changing
# its input, or its result, in place before backward): "input" the input (addmm,
# convolution, native_batch_norm, max_pool save ``self``/``input``; attention and
# transformer layers through their first Linear or LayerNorm), "output" the result
# (ReluBackward, SigmoidBackward, SoftmaxBackward save ``result``), "mask" no tensor the
# program holds, yet a second backward raises (native_dropout saves its mask), "none"
# nothing (padding, pixel shuffle, nearest upsampling), "alias" nothing, the result is the
# input itself or a view of it (Identity, Flatten). A module missing here saves only its
# parameters, as far as the analyzer knows.
MODULE_SAVES = {n: e["saves"] for n, e in _db.modules().items() if e.get("saves")}

# Activations that, built with inplace=True, save their (in-place) result: relu_,
# leaky_relu_, elu_ (also SELU, CELU) backward from ``result``; hardtanh_ (ReLU6),
# silu_, hardswish_ and dropout do not (checked under torch 2.13).
INPLACE_SAVES_OUTPUT = frozenset({"ReLU", "LeakyReLU", "ELU", "SELU", "CELU"})

# Containers of modules: calling a Sequential runs its children in order.
MODULE_CONTAINERS = frozenset({"Sequential", "ModuleList"})
# Those and nn.ModuleDict: an element (``layers[i]``, ``heads[name]``) is a submodule.
INDEXED_MODULE_CONTAINERS = MODULE_CONTAINERS | {"ModuleDict"}
