package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The Machine CRD of the CEL tests and kube's whole 422 bodies. */
final class CelTestSupport {

  static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  static final String MACHINES = "/apis/cel.example.com/v1/namespaces/default/machines";

  private CelTestSupport() {}

  /** A cause of a 422: reason, field, message. */
  record Cause(String reason, String field, String message) {
  }

  static Cause cause(String reason, String field, String message) {
    return new Cause(reason, field, message);
  }

  static String machineCrd() {
    try (InputStream in = CelTestSupport.class.getResourceAsStream("/crds/machine-cel-crd.json")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String machine(String name, String spec) {
    return "{\"apiVersion\":\"cel.example.com/v1\",\"kind\":\"Machine\",\"metadata\":{\"name\":\"" + name + "\"},"
        + "\"spec\":" + spec + "}";
  }

  /** kube's 422 for a Machine. */
  static JsonNode invalidMachine(String name, Cause... causes) {
    return invalid("Machine.cel.example.com", name, "cel.example.com", "Machine", causes);
  }

  /** kube's 422 for a CustomResourceDefinition. */
  static JsonNode invalidCrd(String name, Cause... causes) {
    return invalid("CustomResourceDefinition.apiextensions.k8s.io", name, "apiextensions.k8s.io",
        "CustomResourceDefinition", causes);
  }

  /** kube's 422 for an object of {@code qualifiedKind} with these causes. */
  static JsonNode invalid(String qualifiedKind, String name, String group, String kind, Cause... causes) {
    ObjectNode status = (ObjectNode) json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","reason":"Invalid","code":422}""");
    StringBuilder joined = new StringBuilder();
    for (Cause c : causes) {
      joined.append(joined.length() == 0 ? "" : ", ").append(c.field()).append(": ").append(c.message());
    }
    status.put("message", qualifiedKind + " \"" + name + "\" is invalid: "
        + (causes.length == 1 ? joined : "[" + joined + "]"));
    ObjectNode details = status.putObject("details");
    details.put("name", name).put("group", group).put("kind", kind);
    for (Cause c : causes) {
      details.withArray("causes").addObject().put("reason", c.reason()).put("message", c.message())
          .put("field", c.field());
    }
    return status;
  }
}
