package dev.ctk.fake.internal.cel;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.common.values.CelByteString;
import dev.cel.runtime.CelFunctionBinding;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's list library ({@code k8s.io/apiserver/pkg/cel/library.Lists}): {@code isSorted()}, {@code min()},
 * {@code max()} on lists of comparable values, {@code sum()} on lists of numbers and durations, and
 * {@code indexOf(x)} / {@code lastIndexOf(x)} on any list.
 */
final class ListFunctions {

  private static final Map<String, CelType> COMPARABLE = types("int", SimpleType.INT, "uint", SimpleType.UINT,
      "double", SimpleType.DOUBLE, "bool", SimpleType.BOOL, "duration", SimpleType.DURATION, "timestamp",
      SimpleType.TIMESTAMP, "string", SimpleType.STRING, "bytes", SimpleType.BYTES);
  private static final Map<String, CelType> SUMMABLE = types("int", SimpleType.INT, "uint", SimpleType.UINT,
      "double", SimpleType.DOUBLE, "duration", SimpleType.DURATION);

  private ListFunctions() {}

  static List<CelFunctionDecl> declarations() {
    List<CelOverloadDecl> sorted = new ArrayList<>();
    List<CelOverloadDecl> min = new ArrayList<>();
    List<CelOverloadDecl> max = new ArrayList<>();
    List<CelOverloadDecl> sum = new ArrayList<>();
    COMPARABLE.forEach((name, type) -> {
      sorted.add(CelOverloadDecl.newMemberOverload("list_" + name + "_is_sorted_bool", SimpleType.BOOL,
          ListType.create(type)));
      min.add(CelOverloadDecl.newMemberOverload("list_" + name + "_min_" + name, type, ListType.create(type)));
      max.add(CelOverloadDecl.newMemberOverload("list_" + name + "_max_" + name, type, ListType.create(type)));
    });
    SUMMABLE.forEach((name, type) -> sum.add(CelOverloadDecl.newMemberOverload("list_" + name + "_sum_" + name,
        type, ListType.create(type))));
    TypeParamType a = TypeParamType.create("A");
    return List.of(
        CelFunctionDecl.newFunctionDeclaration("isSorted", sorted),
        CelFunctionDecl.newFunctionDeclaration("min", min),
        CelFunctionDecl.newFunctionDeclaration("max", max),
        CelFunctionDecl.newFunctionDeclaration("sum", sum),
        CelFunctionDecl.newFunctionDeclaration("indexOf", CelOverloadDecl.newMemberOverload("list_a_index_of_int",
            SimpleType.INT, ListType.create(a), a)),
        CelFunctionDecl.newFunctionDeclaration("lastIndexOf", CelOverloadDecl.newMemberOverload(
            "list_a_last_index_of_int", SimpleType.INT, ListType.create(a), a)));
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  static List<CelFunctionBinding> bindings() {
    List<CelFunctionBinding> out = new ArrayList<>();
    COMPARABLE.keySet().forEach(name -> {
      out.add(CelFunctionBinding.from("list_" + name + "_is_sorted_bool", List.class, ListFunctions::isSorted));
      out.add(CelFunctionBinding.from("list_" + name + "_min_" + name, List.class, list -> pick(list, "min", -1)));
      out.add(CelFunctionBinding.from("list_" + name + "_max_" + name, List.class, list -> pick(list, "max", 1)));
    });
    out.add(CelFunctionBinding.from("list_int_sum_int", List.class, list -> sum(list, 0L)));
    out.add(CelFunctionBinding.from("list_uint_sum_uint", List.class, list -> sum(list, UnsignedLong.ZERO)));
    out.add(CelFunctionBinding.from("list_double_sum_double", List.class, list -> sum(list, 0.0)));
    out.add(CelFunctionBinding.from("list_duration_sum_duration", List.class, list -> sum(list, Duration.ZERO)));
    out.add(CelFunctionBinding.from("list_a_index_of_int", List.class, Object.class,
        (list, item) -> (long) list.indexOf(item)));
    out.add(CelFunctionBinding.from("list_a_last_index_of_int", List.class, Object.class,
        (list, item) -> (long) list.lastIndexOf(item)));
    return out;
  }

  private static boolean isSorted(List<?> list) {
    for (int i = 1; i < list.size(); i++) {
      if (compare(list.get(i - 1), list.get(i)) > 0) {
        return false;
      }
    }
    return true;
  }

  /** The first element that no later one beats: {@code direction} -1 keeps the smallest, 1 the largest. */
  private static Object pick(List<?> list, String name, int direction) {
    if (list.isEmpty()) {
      throw new KubeFunctionError(name + " called on empty list");
    }
    Object result = list.get(0);
    for (Object next : list) {
      if (Integer.signum(compare(next, result)) == direction) {
        result = next;
      }
    }
    return result;
  }

  private static Object sum(List<?> list, Object zero) {
    Object acc = zero;
    for (Object next : list) {
      if (acc instanceof Long a) {
        try {
          acc = Math.addExact(a, (Long) next);
        } catch (ArithmeticException e) {
          throw new KubeFunctionError("integer overflow");
        }
      } else if (acc instanceof UnsignedLong a) {
        UnsignedLong b = (UnsignedLong) next;
        UnsignedLong s = a.plus(b);
        if (s.compareTo(a) < 0) {
          throw new KubeFunctionError("unsigned integer overflow");
        }
        acc = s;
      } else if (acc instanceof Double a) {
        acc = a + (Double) next;
      } else {
        acc = ((Duration) acc).plus((Duration) next);
      }
    }
    return acc;
  }

  /** CEL's ordering of two values of one comparable type. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compare(Object a, Object b) {
    if (a instanceof CelByteString x && b instanceof CelByteString y) {
      byte[] p = x.toByteArray();
      byte[] q = y.toByteArray();
      for (int i = 0; i < Math.min(p.length, q.length); i++) {
        int c = Integer.compare(p[i] & 0xff, q[i] & 0xff);
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(p.length, q.length);
    }
    if (a instanceof Instant || a instanceof Duration || a instanceof Comparable) {
      return ((Comparable) a).compareTo(b);
    }
    throw new KubeFunctionError("no such overload");
  }

  private static Map<String, CelType> types(Object... pairs) {
    Map<String, CelType> out = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      out.put((String) pairs[i], (CelType) pairs[i + 1]);
    }
    return out;
  }
}
