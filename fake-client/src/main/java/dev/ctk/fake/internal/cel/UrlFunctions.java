package dev.ctk.fake.internal.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import dev.ctk.fake.internal.status.GoText;
import java.util.List;

/**
 * kube's URL library ({@code k8s.io/apiserver/pkg/cel/library.URLs}): {@code isURL(s)}, {@code url(s)} and on a URL
 * {@code getScheme()}, {@code getHost()}, {@code getHostname()}, {@code getPort()}, {@code getEscapedPath()},
 * {@code getQuery()}, with Go's {@code net/url} rules ({@link GoUrl}).
 */
final class UrlFunctions {

  static final CelType URL = OpaqueType.create("kubernetes.URL");

  private UrlFunctions() {}

  static List<CelFunctionDecl> declarations() {
    return List.of(
        CelFunctionDecl.newFunctionDeclaration("url", CelOverloadDecl.newGlobalOverload("string_to_url", URL,
            SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration("isURL", CelOverloadDecl.newGlobalOverload("is_url_string",
            SimpleType.BOOL, SimpleType.STRING)),
        getter("getScheme", "url_get_scheme", SimpleType.STRING),
        getter("getHost", "url_get_host", SimpleType.STRING),
        getter("getHostname", "url_get_hostname", SimpleType.STRING),
        getter("getPort", "url_get_port", SimpleType.STRING),
        getter("getEscapedPath", "url_get_escaped_path", SimpleType.STRING),
        getter("getQuery", "url_get_query", MapType.create(SimpleType.STRING, ListType.create(SimpleType.STRING))));
  }

  static List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("string_to_url", String.class, UrlFunctions::url),
        CelFunctionBinding.from("is_url_string", String.class, UrlFunctions::isUrl),
        CelFunctionBinding.from("url_get_scheme", GoUrl.class, GoUrl::scheme),
        CelFunctionBinding.from("url_get_host", GoUrl.class, GoUrl::host),
        CelFunctionBinding.from("url_get_hostname", GoUrl.class, GoUrl::hostname),
        CelFunctionBinding.from("url_get_port", GoUrl.class, GoUrl::port),
        CelFunctionBinding.from("url_get_escaped_path", GoUrl.class, GoUrl::escapedPath),
        CelFunctionBinding.from("url_get_query", GoUrl.class, GoUrl::query));
  }

  private static GoUrl url(String text) {
    try {
      return GoUrl.parseRequestUri(text);
    } catch (IllegalArgumentException e) {
      throw new KubeFunctionError("URL parse error during conversion from string: parse " + GoText.quote(text) + ": "
          + e.getMessage());
    }
  }

  private static boolean isUrl(String text) {
    try {
      GoUrl.parseRequestUri(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static CelFunctionDecl getter(String name, String id, CelType result) {
    return CelFunctionDecl.newFunctionDeclaration(name, CelOverloadDecl.newMemberOverload(id, result, URL));
  }
}
