package dev.ctk.fake.internal.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.runtime.CelFunctionBinding;
import java.util.ArrayList;
import java.util.List;

/**
 * The Kubernetes CEL libraries the fake implements, as declarations for the compiler and bindings for the runtime:
 * {@link ListFunctions}, {@link RegexFunctions}, {@link UrlFunctions}, {@link QuantityFunctions},
 * {@link NetFunctions} (IP and CIDR) and {@link FormatFunctions}.
 */
final class KubeLibrary {

  private KubeLibrary() {}

  static List<CelFunctionDecl> declarations() {
    List<CelFunctionDecl> out = new ArrayList<>();
    out.addAll(ListFunctions.declarations());
    out.addAll(RegexFunctions.declarations());
    out.addAll(UrlFunctions.declarations());
    out.addAll(QuantityFunctions.declarations());
    out.addAll(NetFunctions.declarations());
    out.addAll(FormatFunctions.declarations());
    return out;
  }

  static List<CelFunctionBinding> bindings() {
    List<CelFunctionBinding> out = new ArrayList<>();
    out.addAll(ListFunctions.bindings());
    out.addAll(RegexFunctions.bindings());
    out.addAll(UrlFunctions.bindings());
    out.addAll(QuantityFunctions.bindings());
    out.addAll(NetFunctions.bindings());
    out.addAll(FormatFunctions.bindings());
    return out;
  }
}
