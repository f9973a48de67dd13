"""memsym_torch records PyTorch models for memsym.

It runs a torch.nn.Module's forward, or a training step with a torch.optim
optimizer, on the meta device (no memory is allocated) under a
TorchDispatchMode, and writes what it does with memory as a memsym
recording: one operation per ATen call, a buffer per storage, views as
views, parameters and inputs with their roles, each operation's module path
and, for a training step, its phase. See docs/torch.md.

Modules: cli (the command line), program (loading and building the model),
meta (building on the meta device), run (a forward or a training step),
dispatch (the ATen calls), paths (module paths), recording (the format),
errors (one-line errors).
"""
