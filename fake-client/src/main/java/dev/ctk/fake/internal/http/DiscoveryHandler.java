package dev.ctk.fake.internal.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.NamedSubresource;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.version.KubeMinor;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Discovery and server-level endpoints: {@code /version}, {@code /api}, {@code /api/v1}, {@code /apis},
 * {@code /apis/{group}}, {@code /apis/{group}/{version}}, {@code /healthz}, {@code /readyz}, {@code /livez}, and the
 * OpenAPI endpoints (answered 404, which kubectl accepts: it then validates and builds patches without a schema).
 *
 * <p>Only legacy (unaggregated) discovery is served; clients asking for aggregated discovery
 * ({@code as=APIGroupDiscoveryList}) fall back to it because the response's content type is plain JSON.
 */
final class DiscoveryHandler {

  private final ResourceRegistry registry;
  private final Supplier<String> serverAddress;
  private final KubeMinor minor;

  DiscoveryHandler(ResourceRegistry registry, Supplier<String> serverAddress, KubeMinor minor) {
    this.registry = registry;
    this.serverAddress = serverAddress;
    this.minor = minor;
  }

  /** The response for a non-resource path, or empty when the path is not one of these endpoints. */
  Optional<ApiResponse> handle(ApiRequest request) {
    String path = trim(request.path());
    switch (path) {
      case "/version":
        return Optional.of(JsonCodec.respond(200, version()));
      case "/healthz", "/readyz", "/livez":
        return Optional.of(JsonCodec.text(200, "ok"));
      case "/api":
        return Optional.of(JsonCodec.respond(200, apiVersions()));
      case "/apis":
        return Optional.of(JsonCodec.respond(200, groupList()));
      default:
        break;
    }
    String[] parts = path.substring(1).split("/");
    if (parts.length == 2 && parts[0].equals("api")) {
      return Optional.of(resources("", parts[1]));
    }
    if (parts.length == 2 && parts[0].equals("apis")) {
      List<String> versions = registry.groups().get(parts[1]);
      if (versions == null) {
        throw UnservedPaths.inGroup(parts[1]);
      }
      return Optional.of(JsonCodec.respond(200, group(parts[1], versions, true)));
    }
    if (parts.length == 3 && parts[0].equals("apis")) {
      return Optional.of(resources(parts[1], parts[2]));
    }
    if (path.equals("/openapi/v2")) {
      return Optional.of(openApiV2(request));
    }
    if (path.startsWith("/openapi/")) {
      throw ApiError.unknownResource();
    }
    return Optional.empty();
  }

  /**
   * An OpenAPI v2 document without definitions: kubectl asks for it (protobuf) to validate and to build patches; with
   * no schema it skips client-side validation and builds strategic merge patches from its compiled-in types.
   */
  private ApiResponse openApiV2(ApiRequest request) {
    String accept = request.header("accept");
    if (accept != null && accept.contains("protobuf")) {
      return ApiResponse.of(200, "application/com.github.proto-openapi.spec.v2.v1.0+protobuf", new byte[0]);
    }
    ObjectNode doc = JsonCodec.JSON.createObjectNode();
    doc.put("swagger", "2.0");
    doc.putObject("info").put("title", "Kubernetes (ctk fake API server)").put("version", minor.gitVersion());
    doc.putObject("paths");
    doc.putObject("definitions");
    return JsonCodec.respond(200, doc);
  }

  private ApiResponse resources(String group, String version) {
    List<ResourceType> types = registry.inGroupVersion(group, version);
    if (types.isEmpty()) {
      throw UnservedPaths.inGroup(group);
    }
    ObjectNode list = JsonCodec.JSON.createObjectNode();
    list.put("kind", "APIResourceList");
    if (!group.isEmpty()) {
      list.put("apiVersion", "v1");
    }
    list.put("groupVersion", types.get(0).groupVersion());
    ArrayNode resources = list.putArray("resources");
    for (ResourceType t : types) {
      ObjectNode r = resources.addObject();
      r.put("name", t.plural());
      r.put("singularName", t.singular());
      r.put("namespaced", t.namespaced());
      r.put("kind", t.kind());
      ArrayNode verbs = r.putArray("verbs");
      t.verbs().forEach(verbs::add);
      if (!t.shortNames().isEmpty()) {
        ArrayNode shortNames = r.putArray("shortNames");
        t.shortNames().forEach(shortNames::add);
      }
      if (!t.categories().isEmpty()) {
        ArrayNode categories = r.putArray("categories");
        t.categories().forEach(categories::add);
      }
      if (t.hasStatusSubresource()) {
        ObjectNode s = resources.addObject();
        s.put("name", t.plural() + "/status");
        s.put("singularName", "");
        s.put("namespaced", t.namespaced());
        s.put("kind", t.kind());
        s.putArray("verbs").add("get").add("patch").add("update");
      }
      if (t.scaleSubresource().isPresent()) {
        ObjectNode s = resources.addObject();
        s.put("name", t.plural() + "/scale");
        s.put("singularName", "");
        s.put("namespaced", t.namespaced());
        s.put("group", "autoscaling");
        s.put("version", "v1");
        s.put("kind", "Scale");
        s.putArray("verbs").add("get").add("patch").add("update");
      }
      for (NamedSubresource e : NamedSubresources.of(t, minor)) {
        ObjectNode s = resources.addObject();
        s.put("name", t.plural() + "/" + e.name());
        s.put("singularName", "");
        s.put("namespaced", t.namespaced());
        if (!e.group().isEmpty()) {
          s.put("group", e.group());
          s.put("version", e.version());
        }
        s.put("kind", e.kind());
        ArrayNode subresourceVerbs = s.putArray("verbs");
        e.verbs().forEach(subresourceVerbs::add);
      }
    }
    return JsonCodec.respond(200, list);
  }

  private ObjectNode version() {
    ObjectNode v = JsonCodec.JSON.createObjectNode();
    v.put("major", "1");
    v.put("minor", String.valueOf(minor.minor()));
    if (minor.versionHasCompatibilityFields()) {
      v.put("emulationMajor", "1");
      v.put("emulationMinor", String.valueOf(minor.minor()));
      v.put("minCompatibilityMajor", "1");
      v.put("minCompatibilityMinor", String.valueOf(minor.minCompatibilityMinor()));
    }
    v.put("gitVersion", minor.gitVersion());
    v.put("gitCommit", "0000000000000000000000000000000000000000");
    v.put("gitTreeState", "clean");
    v.put("buildDate", "2025-01-01T00:00:00Z");
    v.put("goVersion", "n/a (ctk fake API server on Java " + System.getProperty("java.version") + ")");
    v.put("compiler", "ctk");
    v.put("platform", "java/" + System.getProperty("os.arch"));
    return v;
  }

  private ObjectNode apiVersions() {
    ObjectNode v = JsonCodec.JSON.createObjectNode();
    v.put("kind", "APIVersions");
    v.putArray("versions").add("v1");
    v.putArray("serverAddressByClientCIDRs").addObject()
        .put("clientCIDR", "0.0.0.0/0")
        .put("serverAddress", serverAddress.get());
    return v;
  }

  private ObjectNode groupList() {
    ObjectNode list = JsonCodec.JSON.createObjectNode();
    list.put("kind", "APIGroupList");
    list.put("apiVersion", "v1");
    ArrayNode groups = list.putArray("groups");
    for (Map.Entry<String, List<String>> g : registry.groups().entrySet()) {
      groups.add(group(g.getKey(), g.getValue(), false));
    }
    return list;
  }

  private static ObjectNode group(String name, List<String> versions, boolean withKind) {
    ObjectNode g = JsonCodec.JSON.createObjectNode();
    if (withKind) {
      g.put("kind", "APIGroup");
      g.put("apiVersion", "v1");
    }
    g.put("name", name);
    ArrayNode array = g.putArray("versions");
    for (String v : versions) {
      array.addObject().put("groupVersion", name + "/" + v).put("version", v);
    }
    g.putObject("preferredVersion").put("groupVersion", name + "/" + versions.get(0)).put("version", versions.get(0));
    return g;
  }

  private static String trim(String path) {
    String p = path.isEmpty() ? "/" : path;
    while (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }
}
