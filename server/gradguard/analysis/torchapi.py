"""What the engine knows about PyTorch's API, as plain tables (never imports torch).

Sources: the autograd mechanics notes (https://pytorch.org/docs/stable/notes/autograd.html),
``torch.Tensor.backward`` / ``torch.autograd.backward`` / ``torch.autograd.grad``
(https://pytorch.org/docs/stable/autograd.html) and the derivative formulas in
``tools/autograd/derivatives.yaml`` of the PyTorch source, which say which operations save
their inputs or outputs for the backward pass.
"""

from __future__ import annotations

# Tensor methods and attributes whose result never carries the autograd graph:
# detach() / detach_() return a tensor with requires_grad=False; item(), tolist() and
# numpy() leave tensor land; integer/bool results cannot require grad.
CUT_METHODS = frozenset({
    "detach", "item", "tolist", "numpy", "size", "dim", "numel", "nelement",
    "argmax", "argmin", "argsort", "long", "int", "bool", "short", "byte", "char",
    "nonzero", "sign", "eq", "ne", "lt", "le", "gt", "ge", "isnan", "isinf", "isfinite",
    "any", "all", "data_ptr", "stride", "element_size", "sample", "multinomial", "bernoulli",
    "state_dict", "parameters", "named_parameters", "zero_grad", "train", "eval",
    "register_hook", "get_device", "is_contiguous", "count_nonzero",
})

# Attribute reads that cut the graph (``t.data`` is the tensor without history).
CUT_ATTRIBUTES = frozenset({"data", "shape", "dtype", "device", "grad", "requires_grad",
                            "is_leaf", "ndim", "grad_fn"})

# Builtins whose result is a Python scalar or container of scalars.
CUT_BUILTINS = frozenset({"float", "int", "bool", "len", "str", "repr", "print", "round",
                          "isinstance", "hash", "id", "range", "format", "type"})

# torch.* functions that create tensors from nothing (no graph unless requires_grad=True).
FACTORIES = frozenset({
    "tensor", "as_tensor", "from_numpy", "zeros", "ones", "empty", "full", "rand", "randn",
    "randint", "randperm", "arange", "linspace", "logspace", "eye", "zeros_like",
    "ones_like", "empty_like", "full_like", "rand_like", "randn_like", "randint_like",
    "normal", "bernoulli", "multinomial", "manual_seed", "tril_indices", "triu_indices",
    "one_hot", "no_grad", "inference_mode", "enable_grad", "set_grad_enabled", "device",
    "Generator", "is_tensor", "numel", "argmax", "argmin", "argsort",
})

# Operations that save no tensor for backward (their grad_fn needs only shapes or
# scalars), so walking their freed node again raises nothing: AddBackward0, SubBackward0,
# NegBackward0, ViewBackward0, UnsqueezeBackward0, ... (derivatives.yaml).
NON_SAVING_METHODS = frozenset({
    "view", "reshape", "flatten", "unsqueeze", "squeeze", "transpose", "permute", "t",
    "contiguous", "clone", "expand", "expand_as", "view_as", "reshape_as", "sum", "mean",
    "add", "sub", "neg", "float", "double", "half", "to", "cuda", "cpu", "narrow",
    "chunk", "split", "unbind", "repeat", "movedim", "type_as",
})
NON_SAVING_FUNCTIONS = frozenset({"cat", "stack", "add", "sub", "neg", "flatten", "reshape",
                                  "squeeze", "unsqueeze", "transpose", "chunk", "split",
                                  "hstack", "vstack", "sum", "mean"})

# Tensor methods and attributes that return a view: the result shares the storage (and
# the version counter) of the tensor they are called on (torch.Tensor views,
# https://pytorch.org/docs/stable/tensor_view.html). ``reshape``, ``flatten`` and
# ``contiguous`` copy or not depending on strides, so they are not listed.
VIEW_METHODS = frozenset({"view", "view_as", "unsqueeze", "squeeze", "transpose", "permute",
                          "t", "expand", "expand_as", "narrow", "movedim", "moveaxis",
                          "select", "diagonal", "unfold", "swapaxes", "swapdims", "T", "mT",
                          "H", "real", "imag"})

# Operations whose backward uses their *output* (so an in-place change of the output
# breaks them): ExpBackward, SigmoidBackward, TanhBackward, SoftmaxBackward, ReluBackward
# ... save ``result`` in derivatives.yaml.
OUTPUT_SAVING = frozenset({"exp", "sigmoid", "tanh", "softmax", "log_softmax", "relu",
                           "sqrt", "rsqrt", "elu", "selu", "expm1", "celu", "hardtanh"})

# In-place tensor methods that do not change values autograd saved.
NOT_INPLACE = frozenset({"detach_", "requires_grad_", "retain_grad_", "share_memory_",
                         "register_hook_", "zero_grad_"})

# Modules that change their input in place when built with inplace=True.
INPLACE_MODULES = frozenset({"ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "CELU",
                             "Hardtanh", "Dropout", "Dropout2d", "Dropout3d", "AlphaDropout",
                             "Hardswish", "Hardsigmoid", "SiLU", "Mish", "Threshold"})

# Calls that make a leaf that requires grad.
LEAF_CONSTRUCTORS = frozenset({"Parameter"})

# Modules (torch.nn.X) whose call returns ``(output, hidden)`` where hidden is a tensor
# (RNN, GRU) or a tuple (LSTM): used to write a correct detach fix for the hidden state.
RECURRENT_MODULES = {"RNN": "tensor", "GRU": "tensor", "LSTM": "tuple",
                     "RNNCell": None, "GRUCell": None, "LSTMCell": None}

# Optimizer classes: ``opt.step(closure)`` calls the closure, LBFGS many times.
OPTIMIZER_SUFFIXES = ("SGD", "Adam", "AdamW", "LBFGS", "RMSprop", "Adagrad", "Adadelta",
                      "Adamax", "NAdam", "RAdam", "Rprop", "ASGD", "SparseAdam", "Optimizer",
                      "Adafactor")

# Methods that walk and free the graph of their receiver (Tensor.backward) or of their
# first argument (wrappers: accelerate's Accelerator.backward, Lightning's
# manual_backward, Fabric.backward, DeepSpeed engine.backward).
BACKWARD_METHODS = frozenset({"backward", "manual_backward"})

# Positional index of retain_graph / create_graph in each backward-like API.
# Tensor.backward(gradient=None, retain_graph=None, create_graph=False, inputs=None)
# torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False)
# torch.autograd.grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False)
RETAIN_POSITION = {"tensor.backward": (1, 2), "autograd.backward": (2, 3),
                   "autograd.grad": (3, 4), "wrapper.backward": (None, None)}

# Context managers and decorators under which no graph is recorded.
NO_GRAD_CONTEXTS = frozenset({"no_grad", "inference_mode"})

# Methods only an nn.Module has: a value they are called on is a model.
MODULE_METHODS = frozenset({"parameters", "named_parameters", "zero_grad", "state_dict",
                            "load_state_dict", "modules", "named_modules", "children",
                            "train", "eval", "apply", "register_buffer"})

# Base classes that make a class an nn.Module (a call runs forward and builds a graph).
MODULE_BASES = frozenset({"Module", "LightningModule", "Sequential", "ModuleList",
                          "ModuleDict"})

# Python container methods that add their argument to the container (list, deque, dict,
# set, queue.Queue); LIST_ADDS are those only a list or deque has.
CONTAINER_ADDS = frozenset({"append", "extend", "insert", "add", "update", "appendleft", "put"})
LIST_ADDS = frozenset({"append", "extend", "insert", "appendleft"})

# Cheap text test: a block without any of these tokens cannot free a graph (nor
# discard a detach(), nor run an evaluation loop).
TRIGGER_TOKENS = ("backward", "autograd", ".grad(", ".step(", ".detach()", ".eval()")

# What each torch.nn module's backward needs (derivatives.yaml for the op its forward
# runs; checked under torch 2.13 by changing the input, or the output, in place before
# backward): "output" the result (ReluBackward, SigmoidBackward, SoftmaxBackward save
# ``result``), "input" the input and the module's parameters (addmm, convolution,
# native_batch_norm, max_pool save ``self``/``input``), "mask" no tensor the program
# holds (native_dropout saves its mask), "none" nothing (padding, pixel shuffle,
# nearest upsampling), "alias" nothing, the result is the input itself or a view of it
# (Identity, Flatten). A module missing here saves only its parameters, as far as the
# analyzer knows.
MODULE_SAVES = {
    **dict.fromkeys(("ReLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Softmin",
                     "Softmax2d"), "output"),
    **dict.fromkeys((
        "Linear", "Bilinear", "LazyLinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d",
        "ConvTranspose2d", "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d",
        "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "LayerNorm",
        "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "RMSNorm",
        "GELU", "SiLU", "Mish", "Softplus", "Hardswish", "Hardsigmoid", "Hardtanh", "ReLU6",
        "LeakyReLU", "ELU", "SELU", "CELU", "PReLU", "Threshold", "Softsign", "LogSigmoid",
        "Hardshrink", "Softshrink", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d",
        "AvgPool2d", "AvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
        "AdaptiveMaxPool3d", "Embedding", "EmbeddingBag", "RNN", "GRU", "LSTM", "RNNCell",
        "GRUCell", "LSTMCell"), "input"),
    **dict.fromkeys(("Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
                     "FeatureAlphaDropout"), "mask"),
    **dict.fromkeys(("ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d",
                     "ConstantPad3d", "PixelShuffle", "PixelUnshuffle"), "none"),
    **dict.fromkeys(("Identity", "Flatten", "Unflatten"), "alias"),
}

# Activations that, built with inplace=True, save their (in-place) result: relu_,
# leaky_relu_, elu_ (also SELU, CELU) backward from ``result``; hardtanh_ (ReLU6),
# silu_, hardswish_ and dropout do not (checked under torch 2.13).
INPLACE_SAVES_OUTPUT = frozenset({"ReLU", "LeakyReLU", "ELU", "SELU", "CELU"})

# Containers of modules: calling a Sequential runs its children in order.
MODULE_CONTAINERS = frozenset({"Sequential", "ModuleList"})
