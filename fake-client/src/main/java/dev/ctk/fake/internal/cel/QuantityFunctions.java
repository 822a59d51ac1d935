package dev.ctk.fake.internal.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import java.math.BigDecimal;
import java.util.List;

/**
 * kube's quantity library ({@code k8s.io/apiserver/pkg/cel/library.Quantity}): {@code quantity(s)},
 * {@code isQuantity(s)}, and on a quantity {@code sign()}, {@code isInteger()}, {@code asInteger()},
 * {@code asApproximateFloat()}, {@code compareTo(q)}, {@code isLessThan(q)}, {@code isGreaterThan(q)},
 * {@code add(q|int)}, {@code sub(q|int)}.
 */
final class QuantityFunctions {

  static final CelType QUANTITY = OpaqueType.create("kubernetes.Quantity");

  private QuantityFunctions() {}

  static List<CelFunctionDecl> declarations() {
    return List.of(
        fn("quantity", CelOverloadDecl.newGlobalOverload("string_to_quantity", QUANTITY, SimpleType.STRING)),
        fn("isQuantity", CelOverloadDecl.newGlobalOverload("is_quantity_string", SimpleType.BOOL,
            SimpleType.STRING)),
        fn("sign", member("quantity_sign", SimpleType.INT)),
        fn("isGreaterThan", member("quantity_is_greater_than", SimpleType.BOOL, QUANTITY)),
        fn("isLessThan", member("quantity_is_less_than", SimpleType.BOOL, QUANTITY)),
        fn("compareTo", member("quantity_compare_to", SimpleType.INT, QUANTITY)),
        fn("asApproximateFloat", member("quantity_get_float", SimpleType.DOUBLE)),
        fn("asInteger", member("quantity_get_int", SimpleType.INT)),
        fn("isInteger", member("quantity_is_integer", SimpleType.BOOL)),
        CelFunctionDecl.newFunctionDeclaration("add", member("quantity_add", QUANTITY, QUANTITY),
            member("quantity_add_int", QUANTITY, SimpleType.INT)),
        CelFunctionDecl.newFunctionDeclaration("sub", member("quantity_sub", QUANTITY, QUANTITY),
            member("quantity_sub_int", QUANTITY, SimpleType.INT)));
  }

  static List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("string_to_quantity", String.class, QuantityFunctions::parse),
        CelFunctionBinding.from("is_quantity_string", String.class, QuantityFunctions::isQuantity),
        CelFunctionBinding.from("quantity_sign", Quantity.class, q -> (long) q.value().signum()),
        CelFunctionBinding.from("quantity_is_greater_than", Quantity.class, Quantity.class,
            (a, b) -> a.value().compareTo(b.value()) > 0),
        CelFunctionBinding.from("quantity_is_less_than", Quantity.class, Quantity.class,
            (a, b) -> a.value().compareTo(b.value()) < 0),
        CelFunctionBinding.from("quantity_compare_to", Quantity.class, Quantity.class,
            (a, b) -> (long) Integer.signum(a.value().compareTo(b.value()))),
        CelFunctionBinding.from("quantity_get_float", Quantity.class, q -> q.value().doubleValue()),
        CelFunctionBinding.from("quantity_get_int", Quantity.class, Quantity::asInteger),
        CelFunctionBinding.from("quantity_is_integer", Quantity.class, Quantity::isInteger),
        CelFunctionBinding.from("quantity_add", Quantity.class, Quantity.class, (a, b) -> a.add(b.value())),
        CelFunctionBinding.from("quantity_add_int", Quantity.class, Long.class,
            (a, b) -> a.add(BigDecimal.valueOf(b))),
        CelFunctionBinding.from("quantity_sub", Quantity.class, Quantity.class,
            (a, b) -> a.add(b.value().negate())),
        CelFunctionBinding.from("quantity_sub_int", Quantity.class, Long.class,
            (a, b) -> a.add(BigDecimal.valueOf(b).negate())));
  }

  private static Quantity parse(String text) {
    try {
      return Quantity.parse(text);
    } catch (IllegalArgumentException e) {
      throw new KubeFunctionError(e.getMessage());
    }
  }

  private static boolean isQuantity(String text) {
    try {
      Quantity.parse(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static CelOverloadDecl member(String id, CelType result, CelType... args) {
    CelType[] all = new CelType[args.length + 1];
    all[0] = QUANTITY;
    System.arraycopy(args, 0, all, 1, args.length);
    return CelOverloadDecl.newMemberOverload(id, result, all);
  }

  private static CelFunctionDecl fn(String name, CelOverloadDecl overload) {
    return CelFunctionDecl.newFunctionDeclaration(name, overload);
  }
}
