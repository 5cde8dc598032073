"""BRECQ-style post-training quantisation of a small MLP classifier: train the float model, wrap it
in fake-quant layers, collect Fisher information with the activation quantisers enabled, then
reconstruct the last linear layer."""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

from quant import QuantModel, QuantLinear
from recon import save_grad_data, save_inp_oup_data, layer_reconstruction

torch.manual_seed(0)

ARGS = {"in_dim": 20, "hidden": 64, "classes": 5, "fp_steps": 30, "n_calib_batches": 3,
        "calib_batch": 32, "recon_iters": 20}


def train_fp(args):
    model = nn.Sequential(nn.Linear(args["in_dim"], args["hidden"]), nn.ReLU(),
                          nn.Linear(args["hidden"], args["hidden"]), nn.ReLU(),
                          nn.Linear(args["hidden"], args["classes"]))
    w = torch.randn(args["in_dim"], args["classes"])
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(args["fp_steps"]):
        x = torch.randn(64, args["in_dim"])
        loss = F.cross_entropy(model(x), (x @ w).argmax(1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"fp loss {loss.item():.4f}")
    return model.eval(), opt


def main(args):
    fp_model, fp_opt = train_fp(args)
    qmodel = QuantModel(copy.deepcopy(fp_model)).eval()
    calib = [torch.randn(args["calib_batch"], args["in_dim"]) for _ in range(args["n_calib_batches"])]
    qmodel.set_quant_state(act_quant=True)
    with torch.no_grad():
        qmodel(torch.cat(calib))
    target_layer = qmodel.layers[-1]
    grads = save_grad_data(qmodel, fp_model, target_layer, calib)
    inps, _ = save_inp_oup_data(qmodel, target_layer, calib)
    loss = layer_reconstruction(target_layer, fp_model[-1], inps, grads, iters=args["recon_iters"])
    print(f"reconstruction loss {loss:.6f}")


if __name__ == "__main__":
    main(ARGS)
