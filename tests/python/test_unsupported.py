"""What DenseCore refuses instead of computing something else: each call raises NotImplementedError with a message
that names what is missing, and changes nothing. These are torch features with no DenseCore counterpart (sparse
gradients, embedding's max_norm), so there is no torch result to compare with: the refusal is the behaviour."""
import pytest

import densecore as torch
import densecore.nn.functional as F

pytestmark = pytest.mark.notorch

REFUSED = {
    "gather-sparse-grad": (lambda: torch.gather(torch.arange(4.0), 0, torch.tensor([1, 2]), sparse_grad=True),
                           "sparse_grad=True"),
    "gather-method-sparse-grad": (lambda: torch.arange(4.0).gather(0, torch.tensor([1]), sparse_grad=True),
                                  "sparse_grad=True"),
    "embedding-sparse": (lambda: torch.embedding(torch.randn(3, 2), torch.tensor([0, 2]), sparse=True),
                         "sparse embedding gradients"),
    "functional-embedding-sparse": (lambda: F.embedding(torch.tensor([1]), torch.randn(3, 2), sparse=True),
                                    "sparse embedding gradients"),
    "functional-embedding-max-norm": (lambda: F.embedding(torch.tensor([1]), torch.randn(3, 2), max_norm=1.0),
                                      "max_norm"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_unsupported_is_refused(name):
    call, why = REFUSED[name]
    with pytest.raises(NotImplementedError, match=why):
        call()


def test_a_refused_call_records_nothing():
    w = torch.randn(3, 2, requires_grad=True)
    a = w * 1
    with pytest.raises(NotImplementedError):
        torch.embedding(a, torch.tensor([0]), sparse=True)
    assert a._version == 0 and a.grad_fn.name() == "MulBackward0"
