package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The pod spec checks controllers trip over: at least one container ({@code spec.containers: Required value}),
 * every container (and init container) with a name that is a DNS-1123 label, unique across both lists, and an
 * image. Used for Pods ({@code spec}) and pod templates ({@code spec.template.spec}, ...).
 */
final class PodValidation {

  private PodValidation() {}

  /**
   * Checks a pod spec.
   *
   * @param spec the pod spec (may be missing)
   * @param path its field path, e.g. {@code spec.template.spec}
   */
  static FieldErrors spec(JsonNode spec, String path) {
    FieldErrors errors = new FieldErrors();
    Set<String> names = new HashSet<>();
    JsonNode containers = spec.path("containers");
    if (containers.size() == 0) {
      errors.required(path + ".containers", "");
    }
    containers(containers, path + ".containers", names, errors);
    containers(spec.path("initContainers"), path + ".initContainers", names, errors);
    return errors;
  }

  /** A pod spec's restartPolicy must be one of {@code allowed} (workload templates: Always; Jobs: OnFailure, Never). */
  static void restartPolicy(JsonNode spec, String path, List<String> allowed, FieldErrors errors) {
    String policy = spec.path("restartPolicy").asText("");
    if (!allowed.contains(policy)) {
      errors.notSupported(path + ".restartPolicy", policy, allowed);
    }
  }

  private static void containers(JsonNode list, String path, Set<String> names, FieldErrors errors) {
    for (int i = 0; i < list.size(); i++) {
      JsonNode container = list.get(i);
      String at = path + "[" + i + "]";
      String name = container.path("name").asText("");
      if (name.isEmpty()) {
        errors.required(at + ".name", "");
      } else {
        for (String problem : NameRule.dns1123Label(name)) {
          errors.invalid(at + ".name", name, problem);
        }
        if (!names.add(name)) {
          errors.duplicate(at + ".name", name);
        }
      }
      if (container.path("image").asText("").isEmpty()) {
        errors.required(at + ".image", "");
      }
    }
  }
}
