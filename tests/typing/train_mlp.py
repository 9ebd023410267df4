"""A small typed training program: scripts/test.sh runs mypy over it against the installed wheel, so the
shipped stub (densecore/_C.pyi) and py.typed are checked the way a user's code would see them."""
import densecore
import densecore.nn as nn
import densecore.nn.functional as F
from densecore import Tensor


class MLP(nn.Module):
    def __init__(self, n_in: int, n_hidden: int, n_out: int) -> None:
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_out)

    def forward(self, x: Tensor) -> Tensor:
        h: Tensor = densecore.relu(self.fc1(x))
        out: Tensor = self.fc2(h)
        return out


def make_data(n: int) -> tuple[Tensor, Tensor]:
    x = densecore.randn(n, 4)
    y = (x.sum(dim=1) > 0).long()
    return x, y


def train(steps: int) -> tuple[MLP, list[float]]:
    densecore.manual_seed(0)
    model = MLP(4, 16, 2)
    opt = densecore.optim.AdamW(model.parameters(), lr=1e-2)
    x, y = make_data(64)
    losses: list[float] = []
    for _ in range(steps):
        loss: Tensor = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, losses


def accuracy(model: MLP, x: Tensor, y: Tensor) -> float:
    with densecore.no_grad():
        logits: Tensor = model(x)  # Module.__call__ is untyped Python: the annotation carries the type on
        pred = logits.argmax(dim=1)
        return float((pred == y).float().mean())


def main() -> None:
    model, losses = train(20)
    state = model.state_dict()
    fresh = MLP(4, 16, 2)
    fresh.load_state_dict(state)
    x, y = make_data(32)
    acc: float = accuracy(fresh, x, y)
    w: Tensor = state["fc1.weight"]
    print(f"loss {losses[0]:.4f} -> {losses[-1]:.4f}, accuracy {acc:.2f}, fc1 {tuple(w.shape)}")


if __name__ == "__main__":
    main()
