package dev.ctk.fake.internal.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;
import java.util.function.Function;

/**
 * kube's IP and CIDR libraries ({@code k8s.io/apiserver/pkg/cel/library.IP}, {@code .CIDR}): {@code ip(s)},
 * {@code isIP(s)}, {@code ip.isCanonical(s)}, on an IP {@code family()}, {@code isUnspecified()},
 * {@code isLoopback()}, {@code isLinkLocalMulticast()}, {@code isLinkLocalUnicast()}, {@code isGlobalUnicast()};
 * {@code cidr(s)}, {@code isCIDR(s)}, on a CIDR {@code containsIP(ip|s)}, {@code containsCIDR(cidr|s)},
 * {@code ip()}, {@code masked()}, {@code prefixLength()}; {@code string(ip)} and {@code string(cidr)}.
 */
final class NetFunctions {

  static final CelType IP = OpaqueType.create("net.IP");
  static final CelType CIDR = OpaqueType.create("net.CIDR");

  private NetFunctions() {}

  static List<CelFunctionDecl> declarations() {
    return List.of(
        CelFunctionDecl.newFunctionDeclaration("ip",
            CelOverloadDecl.newGlobalOverload("string_to_ip", IP, SimpleType.STRING),
            CelOverloadDecl.newMemberOverload("cidr_ip", IP, CIDR)),
        CelFunctionDecl.newFunctionDeclaration("isIP", CelOverloadDecl.newGlobalOverload("is_ip", SimpleType.BOOL,
            SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration("ip.isCanonical", CelOverloadDecl.newGlobalOverload(
            "ip_is_canonical", SimpleType.BOOL, SimpleType.STRING)),
        member("family", "ip_family", SimpleType.INT, IP),
        member("isUnspecified", "ip_is_unspecified", SimpleType.BOOL, IP),
        member("isLoopback", "ip_is_loopback", SimpleType.BOOL, IP),
        member("isLinkLocalMulticast", "ip_is_link_local_multicast", SimpleType.BOOL, IP),
        member("isLinkLocalUnicast", "ip_is_link_local_unicast", SimpleType.BOOL, IP),
        member("isGlobalUnicast", "ip_is_global_unicast", SimpleType.BOOL, IP),
        CelFunctionDecl.newFunctionDeclaration("cidr", CelOverloadDecl.newGlobalOverload("string_to_cidr", CIDR,
            SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration("isCIDR", CelOverloadDecl.newGlobalOverload("is_cidr",
            SimpleType.BOOL, SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration("containsIP",
            CelOverloadDecl.newMemberOverload("cidr_contains_ip_string", SimpleType.BOOL, CIDR, SimpleType.STRING),
            CelOverloadDecl.newMemberOverload("cidr_contains_ip_ip", SimpleType.BOOL, CIDR, IP)),
        CelFunctionDecl.newFunctionDeclaration("containsCIDR",
            CelOverloadDecl.newMemberOverload("cidr_contains_cidr_string", SimpleType.BOOL, CIDR,
                SimpleType.STRING),
            CelOverloadDecl.newMemberOverload("cidr_contains_cidr", SimpleType.BOOL, CIDR, CIDR)),
        member("prefixLength", "cidr_prefix_length", SimpleType.INT, CIDR),
        member("masked", "cidr_masked", CIDR, CIDR),
        CelFunctionDecl.newFunctionDeclaration("string",
            CelOverloadDecl.newGlobalOverload("ip_to_string", SimpleType.STRING, IP),
            CelOverloadDecl.newGlobalOverload("cidr_to_string", SimpleType.STRING, CIDR)));
  }

  static List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("string_to_ip", String.class, s -> parse(s, NetAddress::parse)),
        CelFunctionBinding.from("cidr_ip", NetPrefix.class, NetPrefix::address),
        CelFunctionBinding.from("is_ip", String.class, s -> valid(s, NetAddress::parse)),
        CelFunctionBinding.from("ip_is_canonical", String.class,
            s -> parse(s, NetAddress::parse).toString().equals(s)),
        CelFunctionBinding.from("ip_family", NetAddress.class, NetAddress::family),
        CelFunctionBinding.from("ip_is_unspecified", NetAddress.class, NetAddress::isUnspecified),
        CelFunctionBinding.from("ip_is_loopback", NetAddress.class, NetAddress::isLoopback),
        CelFunctionBinding.from("ip_is_link_local_multicast", NetAddress.class, NetAddress::isLinkLocalMulticast),
        CelFunctionBinding.from("ip_is_link_local_unicast", NetAddress.class, NetAddress::isLinkLocalUnicast),
        CelFunctionBinding.from("ip_is_global_unicast", NetAddress.class, NetAddress::isGlobalUnicast),
        CelFunctionBinding.from("string_to_cidr", String.class, s -> parse(s, NetPrefix::parse)),
        CelFunctionBinding.from("is_cidr", String.class, s -> valid(s, NetPrefix::parse)),
        CelFunctionBinding.from("cidr_contains_ip_string", NetPrefix.class, String.class,
            (c, s) -> c.contains(parse(s, NetAddress::parse))),
        CelFunctionBinding.from("cidr_contains_ip_ip", NetPrefix.class, NetAddress.class, NetPrefix::contains),
        CelFunctionBinding.from("cidr_contains_cidr_string", NetPrefix.class, String.class,
            (c, s) -> c.containsPrefix(parse(s, NetPrefix::parse))),
        CelFunctionBinding.from("cidr_contains_cidr", NetPrefix.class, NetPrefix.class, NetPrefix::containsPrefix),
        CelFunctionBinding.from("cidr_prefix_length", NetPrefix.class, c -> (long) c.bits()),
        CelFunctionBinding.from("cidr_masked", NetPrefix.class, NetPrefix::masked),
        CelFunctionBinding.from("ip_to_string", NetAddress.class, NetAddress::toString),
        CelFunctionBinding.from("cidr_to_string", NetPrefix.class, NetPrefix::toString));
  }

  private static <T> T parse(String text, Function<String, T> parser) {
    try {
      return parser.apply(text);
    } catch (IllegalArgumentException e) {
      throw new KubeFunctionError(e.getMessage());
    }
  }

  private static <T> boolean valid(String text, Function<String, T> parser) {
    try {
      parser.apply(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static CelFunctionDecl member(String name, String id, CelType result, CelType target) {
    return CelFunctionDecl.newFunctionDeclaration(name, CelOverloadDecl.newMemberOverload(id, result, target));
  }
}
