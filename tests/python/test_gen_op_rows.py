"""tools/gen_op_rows.py refuses rows that would build a wrong op, and says which row and why.

The generated C++ itself is checked by building it and by test_op_rows.py against torch; these cases are
about the rows the generator must not accept (a differentiable op without a formula above all)."""
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.notorch

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "tools" / "gen_op_rows.py"

GOOD = '''
[[op]]
func = "frac(Tensor self) -> Tensor"
front = "unary"
dtype_rule = "same"
dtypes = "floating"
python = ["function"]
node = "Frac"
derivative = { self = "grad" }
'''


def generate(tmp_path, rows):
    table = tmp_path / "rows.toml"
    table.write_text(rows)
    out = tmp_path / "out"
    return subprocess.run([sys.executable, str(GENERATOR), str(table), str(out)], capture_output=True, text=True), out


def generate_ok(tmp_path, rows):
    """The output folder of a table the generator accepts."""
    run, out = generate(tmp_path, rows)
    assert run.returncode == 0, run.stderr
    return out


def test_the_table_in_the_repository_generates(tmp_path):
    out = generate_ok(tmp_path, (ROOT / "csrc" / "op_rows.toml").read_text())
    assert "X(Logsumexp)" in (out / "ops/densecore/generated/op_rows.h").read_text()


def test_a_good_row_gives_every_part(tmp_path):
    out = generate_ok(tmp_path, GOOD)
    gen = out / "ops/densecore/generated"
    assert "DC_DECLARE_DISPATCH(FracFn, frac_stub);" in (out / "kernels/densecore/generated/stubs.h").read_text()
    assert "X(Frac)" in (gen / "op_rows.h").read_text()
    assert "struct Saved<Op::Frac>" in (gen / "saved.h").read_text()
    assert "formula<Op::Frac>" in (gen / "formulas.inc").read_text()
    assert 'record_with_out<Op::Frac>("frac", {self}, out)' in (gen / "ops.cpp").read_text()
    assert 'm.def("frac"' in (out / "binding/bind_rows.cpp").read_text()


# A binary row with a check before the iterator is built, one after (it names `it`), and torch's save guards.
BINARY = '''
[[op]]
func = "div(Tensor self, Tensor other, Scalar alpha=1) -> Tensor"
front = "binary"
dtype_rule = "float"
dtypes = "floating"
checks = ["sub_check(self, other)", "alpha_check(it.common_dtype(), alpha)"]
python = []
node = "Div"
derivative = { self = "div(grad, other)", other = "mul(neg(grad), div(div(self, other), mul(other, alpha)))" }
'''


def test_a_binary_row_saves_what_torch_saves_and_checks_in_aten_order(tmp_path):
    out = generate_ok(tmp_path, BINARY)
    body = (out / "ops/densecore/generated/ops.cpp").read_text()
    # torch's guard_for: self is read only by other's formula (edge 1); other by both formulas (no guard);
    # alpha is not a tensor (never guarded).
    assert "if (rec.should_compute_output(1)) rec.saved().self = out.is_same(self) ? clone(self) : self;" in body
    assert "    rec.saved().other = other;" in body
    assert "    rec.saved().alpha = alpha;" in body
    # A check that does not read the iterator runs before it is built; alpha_check reads its dtype.
    assert body.index("sub_check(self, other);") < body.index("binary_front(")
    assert "[&](TensorIter& it) { alpha_check(it.common_dtype(), alpha); div_stub(it, alpha); }" in body
    assert "BinaryDtype::Float" in body


# Python forms: an alias gets every form of the row; the schema's `*` makes alpha keyword-only; numbers are
# taken for the tensors; a positional argument's message names its position (self not counted in a method).
FORMS = BINARY.replace('python = []', 'python = ["function", "method", "inplace", "out"]\naliases = ["divide"]\n'
                       'numbers_as_tensors = true').replace("Tensor other, Scalar alpha", "Tensor other, *, Scalar alpha")


def test_python_forms_follow_the_schema(tmp_path):
    out = generate_ok(tmp_path, FORMS)
    binding = (out / "binding/bind_rows.cpp").read_text()
    for form in ('m.def("div"', 'm.def("divide"', 'cls.def("div"', 'cls.def("divide_"', 'cls.def("div_"'):
        assert form in binding
    assert 'py_number::tensor_or_number_arg(other_h, "divide", "other", 2)' in binding
    assert 'py_number::tensor_or_number_arg(other_h, "div_", "other", 1)' in binding
    assert 'py_number::to_scalar(alpha_h, "div", "alpha", 0)' in binding  # keyword-only: no position
    assert ('nb::arg("input"), nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1, nb::arg("out") = nb::none()'
            in binding), "one kw_only marker, where the schema's * is"
    assert " tensor_arg(" not in binding, "every tensor argument takes numbers"
    # The op runs with the GIL released when either tensor is long; the arguments are parsed before.
    assert "gil::ReleaseIf release(gil::is_long(self) || gil::is_long(other));\n      r = dc::div(" in binding


def test_an_int_argument_and_a_product_row(tmp_path):
    run, out = generate(tmp_path, GOOD.replace("Tensor self)", "Tensor self, Tensor other, int k=-1)")
                        .replace('front = "unary"\ndtype_rule = "same"\ndtypes = "floating"', 'front = "composite"')
                        + 'gil = "product"\n')
    assert run.returncode == 0, run.stderr
    ops = (out / "ops/densecore/generated/ops.h").read_text()
    assert "Tensor frac(const Tensor& self, const Tensor& other, int64_t k = -1);" in ops
    binding = (out / "binding/bind_rows.cpp").read_text()
    assert 'int_args::to_int(k_h, "frac", "k", 3)' in binding
    assert "gil::ReleaseIf release(gil::is_long_product(self, other));" in binding


MM = '''
[[op]]
func = "mm(Tensor self, Tensor mat2) -> Tensor"
front = "composite"
python = ["function"]
node = "Mm"
derivative = { self = "mm_mat1_backward(grad, mat2, self.sizes(), self.strides())", mat2 = "mm_mat2_backward(grad, self, mat2.sizes(), mat2.strides())" }
'''


def test_a_formula_reading_sizes_saves_them_not_the_tensor(tmp_path):
    out = generate_ok(tmp_path, MM)
    gen = out / "ops/densecore/generated"
    saved = (gen / "saved.h").read_text()
    assert "Shape self_sizes{};" in saved and "Strides mat2_strides{};" in saved
    body = (gen / "ops.cpp").read_text()
    # self is read as a tensor only by mat2's formula (edge 1): guarded; its sizes are always saved.
    assert "if (rec.should_compute_output(1)) rec.saved().self = self;" in body
    assert "rec.saved().self_sizes = self.sizes();" in body
    formulas = (gen / "formulas.inc").read_text()
    assert "mm_mat1_backward(grad, mat2, self_sizes, self_strides)" in formulas
    assert "const Shape& self_sizes = c.s.self_sizes;" in formulas


# A view row with an overload: its C++ name, torch's node name, its layout in layouts::, and the result
# tracked as a view (created with the grad mode of the call).
VIEW = '''
[[op]]
func = "squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)"
front = "view"
python = []
node = "SqueezeDim"
node_name = "SqueezeBackward1"
derivative = { self = "unsqueeze_to(grad, self.sizes(), dim)" }

[[op]]
func = "_unsafe_view(Tensor self, int[] size, int? offset=None) -> Tensor"
front = "view"
cpp_name = "unsafe_view"
autograd_view = false
python = []
node = "UnsafeView"
derivative = { self = "reshape(grad, self.sizes())" }
'''


def test_a_view_row_makes_a_tracked_view_of_its_layout(tmp_path):
    out = generate_ok(tmp_path, VIEW)
    gen = out / "ops/densecore/generated"
    header = (gen / "ops.h").read_text()
    assert "Tensor squeeze_dim(const Tensor& self, int64_t dim);" in header
    assert "Tensor unsafe_view(const Tensor& self, std::span<const int64_t> size, std::optional<int64_t> offset = std::nullopt);" in header
    layouts = header[header.index("namespace layouts {"):]
    assert "Layout squeeze_dim(const Tensor& self, int64_t dim);" in layouts
    body = (gen / "ops.cpp").read_text()
    squeeze = body[body.index("Tensor squeeze_dim("):body.index("Tensor unsafe_view(")]
    # The layout (with its checks) before the recording; the creation meta read before grad mode goes off.
    assert squeeze.index("layouts::squeeze_dim(self, dim)") < squeeze.index("creation_meta_now()") \
        < squeeze.index("OpRecord<Op::SqueezeDim>")
    assert "rec.saved().dim = dim;" in squeeze and "mark_view(self, result_, meta_);" in squeeze
    unsafe = body[body.index("Tensor unsafe_view("):]
    assert "mark_view" not in unsafe and "creation_meta_now" not in unsafe
    assert "int64_t dim{};" in (gen / "saved.h").read_text()
    assert 'X(SqueezeDim, "SqueezeBackward1")' in (gen / "op_rows.h").read_text()
    assert "stub" not in (out / "kernels/densecore/generated/stubs.h").read_text().split("namespace dc {")[1]


# Non-differentiable tensor inputs (gather's index, masked_fill's mask) get no edge: the recording, the guard's edge
# number and the formula's need() count only the inputs with a derivative. Two overloads share one C++ name.
MASKED = '''
[[op]]
func = "masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor"
cpp_name = "masked_fill"
front = "composite"
python = []
node = "MaskedFill"
derivative = { self = "masked_fill(grad, mask, Scalar::from_int(0))" }

[[op]]
func = "masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor"
cpp_name = "masked_fill"
front = "composite"
python = []
node = "MaskedFillTensor"
derivative = { self = "mul(grad, mask)", value = "sum(mul(grad, self))" }
'''


def test_a_non_differentiable_tensor_gets_no_edge(tmp_path):
    out = generate_ok(tmp_path, MASKED)
    gen = out / "ops/densecore/generated"
    header = (gen / "ops.h").read_text()
    assert "Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value);" in header
    assert "Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value);" in header
    body = (gen / "ops.cpp").read_text()
    assert "OpRecord<Op::MaskedFill> rec({self});" in body
    assert "OpRecord<Op::MaskedFillTensor> rec({self, value});" in body
    # self is read only by value's formula, and value is edge 1 (edge 2 if the mask counted).
    assert "if (rec.should_compute_output(1)) rec.saved().self = self;" in body
    formulas = (gen / "formulas.inc").read_text()
    tensor_form = formulas[formulas.index("formula<Op::MaskedFillTensor>"):]
    assert "return {c.need(0) ? Tensor(mul(grad, mask)) : Tensor(), c.need(1) ? Tensor(sum(mul(grad, self))) : Tensor()};" \
        in tensor_form


# A row with two outputs (max.dim): only the float one is tracked; the formula reads the other, saved as output 1.
MULTI = '''
[[op]]
func = "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"
front = "composite"
cpp_name = "max"
python = []
node = "MaxDim"
node_name = "MaxBackward0"
derivative = { self = "value_selecting_reduction_backward(grad, dim, indices, self.sizes(), keepdim)" }
'''


def test_a_row_with_two_outputs_returns_both_and_saves_the_one_its_formula_reads(tmp_path):
    out = generate_ok(tmp_path, MULTI)
    gen = out / "ops/densecore/generated"
    sig = "std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim"
    assert sig + " = false);" in (gen / "ops.h").read_text()
    body = (gen / "ops.cpp").read_text()
    assert "auto [values, indices] = impl::max_forward(self, dim, keepdim);" in body
    assert "rec.saved().indices = saved_output(indices, 1);" in body
    assert "const Tensor tracked_[] = {values, indices};\n  rec.finish(tracked_);\n  return {values, indices};" in body
    saved = (gen / "saved.h").read_text()
    assert "SavedVariable indices;" in saved and "Shape self_sizes{};" in saved and "SavedVariable values" not in saved
    assert "const Tensor indices = c.get(c.s.indices);" in (gen / "formulas.inc").read_text()
    assert "bind_rows" in (out / "binding/bind_rows.cpp").read_text() and '"max"' not in (out / "binding/bind_rows.cpp").read_text()


# An optional int list and an optional dtype (sum.dim_IntList): None stays apart from an empty list when saved.
SUM_DIM = '''
[[op]]
func = "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"
front = "composite"
cpp_name = "sum"
python = []
node = "SumDim"
node_name = "SumBackward1"
derivative = { self = "sum_backward(grad, self.sizes(), dim, keepdim)" }
'''


def test_an_optional_int_list_is_saved_as_none_or_a_list(tmp_path):
    out = generate_ok(tmp_path, SUM_DIM)
    gen = out / "ops/densecore/generated"
    assert ("Tensor sum(const Tensor& self, OptionalIntList dim, bool keepdim = false, "
            "std::optional<DType> dtype = std::nullopt);") in (gen / "ops.h").read_text()
    assert "if (dim) rec.saved().dim.emplace(dim->begin(), dim->end());" in (gen / "ops.cpp").read_text()
    saved = (gen / "saved.h").read_text()
    assert "std::optional<std::vector<int64_t>> dim{};" in saved and "dtype" not in saved
    assert "const std::optional<std::vector<int64_t>>& dim = c.s.dim;" in (gen / "formulas.inc").read_text()


# One formula for three inputs (grad_input_mask), optional tensors and a float, outputs the node does not track.
LAYER_NORM = """
[[op]]
func = "native_layer_norm(Tensor input, int[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor output, Tensor mean, Tensor rstd)"
front = "composite"
python = []
node = "NativeLayerNorm"
output_differentiability = [true, false, false]
derivative = { "input, weight, bias" = "native_layer_norm_backward(grad, input, normalized_shape, mean, rstd, weight, bias, grad_input_mask)" }
"""


def test_a_joint_formula_fills_each_input_it_names_and_untracked_outputs_are_saved_plain(tmp_path):
    out = generate_ok(tmp_path, LAYER_NORM)
    gen = out / "ops/densecore/generated"
    body = (gen / "ops.cpp").read_text()
    assert ("native_layer_norm(const Tensor& input, std::span<const int64_t> normalized_shape, const Tensor& weight, "
            "const Tensor& bias, double eps)") in body
    assert "OpRecord<Op::NativeLayerNorm> rec({input, weight, bias});" in body
    assert "rec.saved().mean = mean;" in body and "saved_output(mean" not in body
    assert "const Tensor tracked_[] = {output};\n  rec.finish(tracked_);\n  return {output, mean, rstd};" in body
    formula = (gen / "formulas.inc").read_text()
    assert "if (c.need(0) || c.need(1) || c.need(2)) {" in formula
    assert "const std::array<bool, 3> grad_input_mask{c.need(0), c.need(1), c.need(2)};" in formula
    assert "if (c.need(2)) grads_[2] = std::get<2>(grads_of_);" in formula


# A composite with out=: the in-place form saves a copy of self; str? and the dtype an attribute reads.
DIV_MODE = """
[[op]]
func = "div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor"
front = "composite"
with_out = true
cpp_name = "div"
python = []
node = "DivTensorMode"
node_name = "DivBackward2"
derivative = { self = "div_tensor_self_backward(grad, other, self.scalar_type(), rounding_mode)", other = "div_tensor_other_backward(grad, self, other, rounding_mode)" }
"""


def test_a_composite_with_out_records_like_an_iterator_front(tmp_path):
    out = generate_ok(tmp_path, DIV_MODE)
    gen = out / "ops/densecore/generated"
    assert ("Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode, "
            "const Tensor& out = {});") in (gen / "ops.h").read_text()
    body = (gen / "ops.cpp").read_text()
    assert 'auto rec = record_with_out<Op::DivTensorMode>("div", {self, other}, out);' in body
    # self is read as a tensor by other's formula only (guarded), and by its dtype in its own.
    assert "if (rec.should_compute_output(1)) rec.saved().self = out.is_same(self) ? clone(self) : self;" in body
    assert "if (rounding_mode) rec.saved().rounding_mode.emplace(*rounding_mode);" in body
    assert "rec.saved().self_scalar_type = self.dtype();" in body
    assert "impl::div_forward(self, other, rounding_mode, out);" in body
    assert "std::optional<std::string> rounding_mode{};" in (gen / "saved.h").read_text()


FILL = '''
[[op]]
func = "bernoulli_.Tensor(Tensor(a!) self, Tensor p, *, Generator? generator=None) -> Tensor(a!)"
front = "inplace"
cpp_name = "bernoulli_"
python = []
node = "BernoulliTensor"
node_name = "BernoulliBackward1"
derivative = { self = "zeros_like(grad)", p = "zeros_like(grad)" }

[[op]]
func = "zero_(Tensor(a!) self) -> Tensor(a!)"
front = "inplace"
python = ["method"]
node = "Zero"
derivative = { self = "zeros_like(grad)" }

[[op]]
func = "copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)"
front = "inplace"
python = []
node = "Copy"
derivative = { self = "zeros_like(grad)", src = "to_dtype_copy(grad, src.scalar_type())" }
'''


def test_an_inplace_row_records_self_first_around_its_native_write(tmp_path):
    out = generate_ok(tmp_path, FILL)
    gen = out / "ops/densecore/generated"
    header = (gen / "ops.h").read_text()
    recorded = "const Tensor& bernoulli_(const Tensor& self, const Tensor& p, const Generator& generator = nullptr);"
    # The recorded op in dc, and the same signature in native (the write alone, for ops on tensors they made).
    assert header.count(recorded) == 2
    assert header.index(recorded) < header.index("namespace native {") < header.rindex(recorded)
    body = (gen / "ops.cpp").read_text()
    assert ("OpRecord<Op::BernoulliTensor> rec(self, {p});\n  native::bernoulli_(self, p, generator);\n"
            "  rec.finish(self);\n  return self;") in body
    # copy_ saves src's dtype, not src.
    assert "rec.saved().src_scalar_type = src.dtype();\n  }\n  native::copy_(self, src, non_blocking);" in body
    # zero_'s method returns the Python object it was called on.
    binding = (out / "binding/bind_rows.cpp").read_text()
    zero = binding[binding.index('cls.def("zero_"'):]
    assert "r = dc::zero_(self);" in zero and "return nb::borrow(self_h);" in zero.split("});")[0]


CAT = '''
[[op]]
func = "cat(Tensor[] tensors, int dim=0) -> Tensor"
front = "composite"
python = []
node = "Cat"
derivative = { tensors = "cat_tensors_backward(grad, tensors.sizes(), dim)" }
'''


def test_a_tensor_list_has_an_edge_per_element_and_saves_each_size(tmp_path):
    out = generate_ok(tmp_path, CAT)
    gen = out / "ops/densecore/generated"
    assert "Tensor cat(std::span<const Tensor> tensors, int64_t dim = 0);" in (gen / "ops.h").read_text()
    body = (gen / "ops.cpp").read_text()
    assert "OpRecord<Op::Cat> rec(tensors);" in body
    assert "for (const Tensor& t_ : tensors) rec.saved().tensors_sizes.push_back(t_.sizes());" in body
    assert "std::vector<Shape> tensors_sizes{};" in (gen / "saved.h").read_text()
    # The formula returns the list's gradients itself (a std::vector<Tensor>, one per element).
    assert "  return cat_tensors_backward(grad, tensors_sizes, dim);\n}" in (gen / "formulas.inc").read_text()
    # A formula that reads the list saves each tensor.
    out = generate_ok(tmp_path, CAT.replace("tensors.sizes()", "tensors"))
    gen = out / "ops/densecore/generated"
    assert "rec.saved().tensors.assign(tensors.begin(), tensors.end());" in (gen / "ops.cpp").read_text()
    assert "const std::vector<Tensor> tensors = c.get(c.s.tensors);" in (gen / "formulas.inc").read_text()


UNBIND = '''
[[op]]
func = "unbind.int(Tensor(a) self, int dim=0) -> Tensor(a)[]"
front = "view"
cpp_name = "unbind"
python = []
node = "Unbind"
derivative = { self = "unbind_backward(grads, dim, self.sizes(), self.scalar_type())" }
'''


def test_a_view_row_of_several_views_gives_them_one_node(tmp_path):
    out = generate_ok(tmp_path, UNBIND)
    gen = out / "ops/densecore/generated"
    header = (gen / "ops.h").read_text()
    assert "std::vector<Tensor> unbind(const Tensor& self, int64_t dim = 0);" in header
    assert "std::vector<Layout> unbind(const Tensor& self, int64_t dim);" in header  # layouts::unbind
    body = (gen / "ops.cpp").read_text()
    assert "const CreationMeta meta_ = creation_meta_now(CreationMeta::MultiOutputNode);" in body
    assert ("for (const Layout& l_ : layouts_) result_.push_back(make_view(self, l_));\n"
            "  rec.finish(std::span<const Tensor>(result_));\n"
            "  for (const Tensor& r_ : result_) mark_view(self, r_, meta_);") in body
    formula = (gen / "formulas.inc").read_text()
    assert "const std::vector<Tensor>& grads = c.grads;" in formula


INDEX_PUT = '''
[[op]]
func = "index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)"
front = "inplace"
python = []
node = "IndexPutInplace"
node_name = "IndexPutBackward0"
derivative = { self = "index_put_self_backward(grad, indices, values.sizes(), accumulate)", values = "index(grad, indices)" }
'''


def test_a_non_differentiable_list_beside_self_is_saved_and_gets_no_edges(tmp_path):
    out = generate_ok(tmp_path, INDEX_PUT)
    gen = out / "ops/densecore/generated"
    body = (gen / "ops.cpp").read_text()
    assert "OpRecord<Op::IndexPutInplace> rec(self, {values});" in body
    assert "rec.saved().indices.assign(indices.begin(), indices.end());" in body
    saved = (gen / "saved.h").read_text()
    # The list is released after backward like any saved tensor (a second backward raises torch's error).
    assert "std::vector<SavedVariable> indices{};" in saved and "return std::tie(indices);" in saved
    formula = (gen / "formulas.inc").read_text()
    assert "const std::vector<Tensor> indices = c.get(c.s.indices);" in formula
    assert "c.need(1) ? Tensor(index(grad, indices)) : Tensor()" in formula



BAD = {
    "node-without-derivative": (GOOD.replace('derivative = { self = "grad" }\n', ""), "node and derivative go together"),
    "derivative-without-node": (GOOD.replace('node = "Frac"\n', ""), "node and derivative go together"),
    "derivative-of-a-non-tensor": (
        GOOD.replace("Tensor self)", "Tensor self, Scalar s=1)").replace("self = ", "s = "), "not a tensor input"),
    "unknown-field": (GOOD + 'saved = ["self"]\n', "unknown fields ['saved']"),
    "unknown-front": (GOOD.replace('"unary"', '"quaternary"'), "front must be one of"),
    "ternary-with-dtype-rule": (GOOD.replace('"unary"', '"ternary"'), "a ternary row has no dtype_rule"),
    "ternary-with-two-tensors": (
        GOOD.replace('"unary"', '"ternary"').replace('dtype_rule = "same"\n', "").replace("Tensor self)", "Tensor self, Tensor b)"),
        "a ternary row starts with 3 Tensor argument(s)"),
    "unary-without-dtype-rule": (GOOD.replace('dtype_rule = "same"\n', ""), "needs dtype_rule"),
    "unknown-dtypes": (GOOD.replace('"floating"', '"integral"'), "dtypes must be one of"),
    "unknown-python-form": (GOOD.replace('["function"]', '["functional"]'), "python forms are"),
    "unknown-argument-type": (GOOD.replace("Tensor self)", "Tensor self, Dimname x)"), "cannot read argument"),
    "bad-schema": (GOOD.replace(") -> Tensor", ") -> (Tensor, Tensor)"), "func must read"),
    "declared-twice": (GOOD + GOOD, "declared twice"),
    "composite-with-out": (
        GOOD.replace('"unary"', '"composite"').replace('["function"]', '["function", "out"]'), "no in-place or out="),
    "composite-with-checks": (
        GOOD.replace('"unary"', '"composite"').replace('dtype_rule = "same"\n', 'checks = ["f(self)"]\n'),
        "no dtype_rule or checks"),
    "aliases-without-python-forms": (GOOD.replace('["function"]', '[]\naliases = ["fractional"]'), "aliases name Python"),
    "product-with-one-tensor": (GOOD + 'gil = "product"\n', "gil is elementwise"),
    "attribute-of-a-non-tensor": (
        GOOD.replace("Tensor self)", "Tensor self, Scalar s=1)").replace('"grad"', '"mul(grad, s.sizes())"'),
        "not a tensor input"),
    "view-with-out": (VIEW.replace("python = []", 'python = ["out"]', 1), "a view row has no in-place or out= form"),
    "view-of-two-tensors": (VIEW.replace("int dim)", "Tensor dim)", 1), "a view row has one Tensor argument"),
    "view-without-node": (VIEW.replace('node = "SqueezeDim"\nnode_name = "SqueezeBackward1"\n', "").replace(
        'derivative = { self = "unsqueeze_to(grad, self.sizes(), dim)" }\n', "", 1), "a view row has one Tensor argument (self) and a node"),
    "autograd-view-of-a-non-view": (GOOD + "autograd_view = false\n", "autograd_view is for view rows"),
    "two-rows-one-cpp-signature": (
        GOOD + GOOD.replace('"frac(', '"frac2(').replace("front = ", 'cpp_name = "frac"\nfront = ', 1),
        "two rows have one C++ name and argument types"),
    "two-outputs-with-python-forms": (MULTI.replace("python = []", 'python = ["function"]'), "Python forms (torch.return_types)"),
    "two-outputs-unary": (MULTI.replace('"composite"', '"unary"\ndtype_rule = "same"\ndtypes = "all"'), "a row with several outputs is composite"),
    "output-named-like-an-argument": (MULTI.replace("Tensor indices)", "Tensor dim)"), "an output is named like an argument"),
    "untracked-output-first": (LAYER_NORM.replace("[true, false, false]", "[false, true, true]"), "the tracked ones first"),
    "differentiability-count": (LAYER_NORM.replace("[true, false, false]", "[true, false]"), "one entry per output"),
    "two-derivatives-for-an-input": (
        LAYER_NORM.replace('"input, weight, bias" =', 'input = "grad", "input, weight, bias" ='), "an input has two derivatives"),
    "with-out-several-outputs": (LAYER_NORM.replace('front = "composite"', 'front = "composite"\nwith_out = true'),
                                 "with_out is for composite rows with one output"),
    "optional-tensor-with-python-forms": (LAYER_NORM.replace(
        "-> (Tensor output, Tensor mean, Tensor rstd)", "-> Tensor").replace("output_differentiability = [true, false, false]\n", "")
        .replace("python = []", 'python = ["function"]').replace("mean, rstd", "input, input"), "arguments have generated Python forms"),
    "optional-list-with-python-forms": (SUM_DIM.replace("python = []", 'python = ["method"]'), "arguments have generated Python forms"),
    "inplace-without-annotation": (FILL.replace("Tensor(a!) self, Tensor p", "Tensor self, Tensor p"),
                                   "an inplace row reads 'name(Tensor(a!) self"),
    "inplace-returning-a-new-tensor": (FILL.replace("generator=None) -> Tensor(a!)", "generator=None) -> Tensor"),
                                       "an inplace row reads"),
    "inplace-writing-another-argument": (FILL.replace("Tensor p,", "Tensor(a!) p,"), "writes into self only"),
    "annotation-on-a-composite": (FILL.replace('front = "inplace"\ncpp_name', 'front = "composite"\ncpp_name', 1),
                                  "only an inplace row writes into an argument"),
    "inplace-self-without-derivative": (FILL.replace('self = "zeros_like(grad)", p =', "p =", 1),
                                        "give self a derivative"),
    "inplace-formula-reads-self": (FILL.replace('p = "zeros_like(grad)"', 'p = "zeros_like(self)"', 1),
                                   "cannot read self or the result"),
    "inplace-formula-reads-self-size": (FILL.replace('p = "zeros_like(grad)"', 'p = "zeros(self.sizes())"', 1),
                                        "cannot read self or the result"),
    "inplace-function-form": (FILL.replace('python = ["method"]', 'python = ["function"]'), "one Python form is the method"),
    "formula-reads-the-generator": (FILL.replace('p = "zeros_like(grad)"', 'p = "f(grad, generator)"', 1),
                                    "cannot read the generator"),
    "list-with-another-tensor": (CAT.replace("Tensor[] tensors,", "Tensor[] tensors, Tensor w,"), "a composite row's only tensor input"),
    "list-in-a-unary-row": (CAT.replace('front = "composite"', 'front = "unary"\ndtype_rule = "same"\ndtypes = "all"'),
                            "a Tensor[] argument is for composite or inplace rows"),
    "list-with-python-forms": (CAT.replace("python = []", 'python = ["function"]'), "arguments have generated Python forms"),
    "list-without-node": (CAT.replace('node = "Cat"\n', "").replace(
        'derivative = { tensors = "cat_tensors_backward(grad, tensors.sizes(), dim)" }\n', ""), "needs a node"),
    "list-result-composite": (CAT.replace("-> Tensor", "-> Tensor[]"), "a row returning Tensor[] is a view row"),
    "list-result-with-python-forms": (UNBIND.replace("python = []", 'python = ["method"]'), "a row returning Tensor[] is a view row"),
    "list-result-reads-result": (UNBIND.replace("unbind_backward(grads,", "unbind_backward(result,"), "reads `grads`, not the result"),
    "differentiable-list-beside-self": (INDEX_PUT.replace('values = "index(grad, indices)"', 'indices = "f(grad)"'),
                                        "a differentiable Tensor[] must be a composite row's only tensor input"),
    "binary-with-unknown-dtype-rule": (
        BINARY.replace('dtype_rule = "float"', 'dtype_rule = "int"'), "binary row's dtype_rule is same"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_row_is_refused(tmp_path, name):
    rows, why = BAD[name]
    run, out = generate(tmp_path, rows)
    assert run.returncode == 1
    assert why in run.stderr
    assert not out.exists(), "nothing is written when a row is refused"


# gelu's forward_saves: the forward gets a Tensor* for the derivative while the node records, the node saves
# what it wrote, and the formula reads it as a saved tensor.
GELU = '''
[[op]]
func = "gelu(Tensor self, *, str approximate='none') -> Tensor"
front = "composite"
python = []
node = "Gelu"
forward_saves = ["derivative"]
derivative = { self = "gelu_backward_with_derivative(grad, self, approximate, derivative)" }
'''


def test_forward_saves_reach_the_forward_the_node_and_the_formula(tmp_path):
    gen = generate_ok(tmp_path, GELU) / "ops/densecore/generated"
    assert "Tensor gelu_forward(const Tensor& self, std::string_view approximate, Tensor* derivative);" in (
        gen / "ops.h").read_text()
    body = (gen / "ops.cpp").read_text()
    assert "impl::gelu_forward(self, approximate, rec.active() ? &derivative_ : nullptr);" in body
    assert "if (rec.active()) rec.saved().derivative = derivative_;" in body
    saved = (gen / "saved.h").read_text()
    assert "SavedVariable derivative;" in saved and "std::tie(self, derivative)" in saved
    assert "const Tensor derivative = c.get(c.s.derivative);" in (gen / "formulas.inc").read_text()


@pytest.mark.parametrize("change, message", [
    (('forward_saves = ["derivative"]\n', 'forward_saves = ["unused"]\n'), "not read by a derivative"),
    (('forward_saves = ["derivative"]\n', 'forward_saves = ["self"]\n'), "named like an argument"),
    (('front = "composite"', 'front = "unary"\ndtype_rule = "same"\ndtypes = "floating"'), "differentiable composite rows"),
    (('node = "Gelu"\n', 'node = "Gelu"\nwith_out = true\n'), "differentiable composite rows"),
])
def test_forward_saves_are_refused_where_they_cannot_work(tmp_path, change, message):
    run, _ = generate(tmp_path, GELU.replace(*change))
    assert run.returncode != 0 and message in run.stderr, run.stderr
