package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the round trip through kube's Go types and protobuf storage does to the empty values of a built-in object,
 * so that the fake stores and answers what kube-apiserver would:
 * <ul>
 *   <li>an empty list is gone: Go drops an empty slice tagged {@code omitempty} ({@code env: []} after a strategic
 *       merge patch deleted the last variable, {@code finalizers: []}, {@code tolerations: []}); a list field without
 *       {@code omitempty} comes back as {@code null} instead, because protobuf storage turns an empty slice into a nil
 *       one (a Role's {@code rules: []} reads back as {@code rules: null});</li>
 *   <li>an empty map is gone ({@code labels: {}}, a ConfigMap's {@code data: {}}, {@code resources.limits: {}}), every
 *       map of the built-in types being {@code omitempty};</li>
 *   <li>an empty object that is a Go struct stays {@code {}} ({@code emptyDir: {}}, {@code securityContext: {}}).</li>
 * </ul>
 *
 * <p>JSON cannot tell a map from a struct, nor a list field with {@code omitempty} from one without: {@link #RULES}
 * lists the map fields and the non-{@code omitempty} list fields of the kinds the fake serves (from the struct tags
 * of {@code k8s.io/api}); every other empty list is dropped and every other empty object kept. Raw JSON fields
 * ({@code ControllerRevision.data}, {@code managedFields[].fieldsV1}) and CustomResourceDefinitions (whose schemas
 * hold defaults and examples as raw JSON) are left as sent; custom resources are not built-in and not touched.
 *
 * <p>Limits: JSON {@code null} values are kept as sent (kube would drop an {@code omitempty} one and zero a struct);
 * a struct field that is absent is not added as {@code {}} (the pod defaults add a container's {@code resources: {}},
 * the one controllers read most).
 */
final class BuiltinEncoding {

  /**
   * One rule a line: the kind ({@code group/Kind}, {@code /Kind} for core, {@code *} for every built-in kind), the
   * path ({@code /} first: from the object's root; otherwise any path that ends so; {@code *} stands for a list
   * element) and what an empty value there is: {@code map} (dropped), {@code null-list} (becomes {@code null}) or
   * {@code raw} (left as it is, with all it holds).
   */
  static final String RULES = """
      *                                   metadata/labels                       map
      *                                   metadata/annotations                  map
      *                                   /metadata/managedFields/*/fieldsV1    raw
      *                                   matchLabels                           map
      *                                   nodeSelector                          map
      *                                   overhead                              map
      *                                   resources/limits                      map
      *                                   resources/requests                    map
      *                                   capacity                              map
      *                                   allocatable                           map
      *                                   allocatedResources                    map
      *                                   hard                                  map
      *                                   used                                  map
      *                                   volumeAttributes                      map
      *                                   spec/containers                       null-list
      *                                   nodeSelectorTerms                     null-list
      *                                   http/paths                            null-list
      *                                   podFailurePolicy/rules                null-list
      /ConfigMap                          /data                                 map
      /ConfigMap                          /binaryData                           map
      /Secret                             /data                                 map
      /Secret                             /stringData                           map
      /Service                            /spec/selector                        map
      /ReplicationController              /spec/selector                        map
      /LimitRange                         /spec/limits                          null-list
      /LimitRange                         /spec/limits/*/max                    map
      /LimitRange                         /spec/limits/*/min                    map
      /LimitRange                         /spec/limits/*/default                map
      /LimitRange                         /spec/limits/*/defaultRequest         map
      /LimitRange                         /spec/limits/*/maxLimitRequestRatio   map
      apps/ControllerRevision             /data                                 raw
      rbac.authorization.k8s.io/Role      /rules                                null-list
      rbac.authorization.k8s.io/Role      /rules/*/verbs                        null-list
      rbac.authorization.k8s.io/ClusterRole /rules                              null-list
      rbac.authorization.k8s.io/ClusterRole /rules/*/verbs                      null-list
      discovery.k8s.io/EndpointSlice      /endpoints                            null-list
      discovery.k8s.io/EndpointSlice      /ports                                null-list
      discovery.k8s.io/EndpointSlice      /endpoints/*/deprecatedTopology       map
      policy/PodDisruptionBudget          /status/disruptedPods                 map
      storage.k8s.io/StorageClass         /parameters                           map
      """;

  /** Kinds left exactly as sent. */
  private static final List<String> UNTOUCHED_KINDS = List.of("apiextensions.k8s.io/CustomResourceDefinition");

  private enum Action { MAP, NULL_LIST, RAW }

  private record Rule(String kind, List<String> path, boolean fromRoot, Action action) {

    boolean matches(String kindKey, List<String> at) {
      if (!kind.equals("*") && !kind.equals(kindKey)) {
        return false;
      }
      if (fromRoot ? at.size() != path.size() : at.size() < path.size()) {
        return false;
      }
      int offset = at.size() - path.size();
      for (int i = 0; i < path.size(); i++) {
        if (!path.get(i).equals(at.get(offset + i))) {
          return false;
        }
      }
      return true;
    }
  }

  private static final List<Rule> TABLE = parse(RULES);

  /**
   * The rules that can apply to a kind, by the last element of their path (a rule matches only a path that ends with
   * its own last element), each bucket in table order: a node's rule is found among a few, not the whole table.
   */
  private static final Map<String, Map<String, List<Rule>>> BY_KIND = new ConcurrentHashMap<>();

  private BuiltinEncoding() {}

  /**
   * Rewrites the empty values of a built-in object in place, as kube would store them; does nothing to custom
   * resources and CustomResourceDefinitions.
   *
   * @param type the resource the object belongs to
   * @param object a private copy of the object about to be stored
   */
  static void normalize(ResourceType type, ObjectNode object) {
    String kindKey = type.group() + "/" + type.kind();
    if (type.custom() || UNTOUCHED_KINDS.contains(kindKey)) {
      return;
    }
    walk(kindKey, BY_KIND.computeIfAbsent(kindKey, BuiltinEncoding::rulesOf), object, new ArrayList<>());
  }

  /** Normalizes what {@code node} holds; {@code at} is its path from the root. */
  private static void walk(String kindKey, Map<String, List<Rule>> rules, JsonNode node, List<String> at) {
    if (node instanceof ObjectNode object) {
      Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        at.add(field.getKey());
        JsonNode value = field.getValue();
        Action action = actionAt(kindKey, rules, at);
        if (action != Action.RAW) {
          walk(kindKey, rules, value, at);
          if (value instanceof ArrayNode list && list.isEmpty()) {
            if (action == Action.NULL_LIST) {
              field.setValue(object.nullNode());
            } else {
              fields.remove();
            }
          } else if (value instanceof ObjectNode map && map.isEmpty() && action == Action.MAP) {
            fields.remove();
          }
        }
        at.remove(at.size() - 1);
      }
    } else if (node instanceof ArrayNode list) {
      at.add("*");
      if (actionAt(kindKey, rules, at) != Action.RAW) {
        for (JsonNode element : list) {
          walk(kindKey, rules, element, at);
        }
      }
      at.remove(at.size() - 1);
    }
  }

  /** The action of the first rule of the kind's {@code rules} that matches {@code at}, or {@code null}. */
  private static Action actionAt(String kindKey, Map<String, List<Rule>> rules, List<String> at) {
    List<Rule> candidates = rules.get(at.get(at.size() - 1));
    if (candidates != null) {
      for (Rule rule : candidates) {
        if (rule.matches(kindKey, at)) {
          return rule.action();
        }
      }
    }
    return null;
  }

  private static Map<String, List<Rule>> rulesOf(String kindKey) {
    Map<String, List<Rule>> byLastElement = new HashMap<>();
    for (Rule rule : TABLE) {
      if (rule.kind().equals("*") || rule.kind().equals(kindKey)) {
        byLastElement.computeIfAbsent(rule.path().get(rule.path().size() - 1), last -> new ArrayList<>()).add(rule);
      }
    }
    return byLastElement;
  }

  private static List<Rule> parse(String text) {
    List<Rule> rules = new ArrayList<>();
    for (String line : text.strip().split("\n")) {
      String[] cells = line.strip().split("\\s+");
      String path = cells[1];
      boolean fromRoot = path.startsWith("/");
      Action action = switch (cells[2]) {
        case "map" -> Action.MAP;
        case "null-list" -> Action.NULL_LIST;
        case "raw" -> Action.RAW;
        default -> throw new IllegalStateException("unknown action in BuiltinEncoding.RULES: " + line);
      };
      rules.add(new Rule(cells[0], List.of((fromRoot ? path.substring(1) : path).split("/")), fromRoot, action));
    }
    return List.copyOf(rules);
  }
}
