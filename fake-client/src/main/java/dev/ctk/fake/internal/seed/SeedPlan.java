package dev.ctk.fake.internal.seed;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.CrdRegistration;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.values.FakeClusterException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Validates a batch of seed objects as a whole before anything is written, then orders it: CustomResourceDefinitions
 * first, then Namespaces, then everything else in the order given.
 *
 * <p>Checked up front, so nothing is half-loaded: every object has apiVersion, kind and a name (or generateName);
 * its kind is served (built in, already installed, or defined by a CRD in the same batch); its namespace exists or
 * is created by the batch; no two objects (and no existing object) share a kind, namespace and name. Namespaced
 * objects without a namespace go to {@code default}, as kubectl does.
 */
public final class SeedPlan {

  /** One write of the plan. */
  public record Entry(SeedDocument document, String apiVersion, String kind, String namespace) {
  }

  private final List<Entry> entries;

  private SeedPlan(List<Entry> entries) {
    this.entries = entries;
  }

  /** The writes, in order. */
  public List<Entry> entries() {
    return entries;
  }

  /**
   * Validates and orders a batch.
   *
   * @throws FakeClusterException naming the source, document and object, what is wrong and the fix
   */
  public static SeedPlan of(List<SeedDocument> documents, ObjectStore store) {
    ResourceRegistry registry = store.registry();
    Map<String, ResourceType> batchKinds = new HashMap<>();
    List<SeedDocument> crds = new ArrayList<>();
    List<SeedDocument> namespaces = new ArrayList<>();
    List<SeedDocument> others = new ArrayList<>();
    for (SeedDocument doc : documents) {
      requireShape(doc);
      String apiVersion = doc.object().path("apiVersion").asText();
      String kind = doc.object().path("kind").asText();
      if (apiVersion.equals("apiextensions.k8s.io/v1") && kind.equals("CustomResourceDefinition")) {
        try {
          for (ResourceType t : CrdRegistration.typesOf(doc.object())) {
            batchKinds.put(t.apiVersion() + "/" + t.kind(), t);
          }
        } catch (ApiError e) {
          throw new FakeClusterException("Cannot seed the fake cluster: " + doc.where() + " (" + doc.identity()
              + ") is not a valid CustomResourceDefinition: " + e.getMessage() + ". Fix the CRD.");
        }
        crds.add(doc);
      } else if (apiVersion.equals("v1") && kind.equals("Namespace")) {
        namespaces.add(doc);
      } else {
        others.add(doc);
      }
    }
    Map<String, SeedDocument> seen = new HashMap<>();
    List<String> newNamespaces = new ArrayList<>();
    List<Entry> entries = new ArrayList<>();
    for (List<SeedDocument> group : List.of(crds, namespaces, others)) {
      for (SeedDocument doc : group) {
        String apiVersion = doc.object().path("apiVersion").asText();
        String kind = doc.object().path("kind").asText();
        Optional<ResourceType> registered = registry.byKind(apiVersion, kind);
        ResourceType type = registered.orElseGet(() -> batchKinds.get(apiVersion + "/" + kind));
        if (type == null) {
          throw new FakeClusterException("Cannot seed the fake cluster: " + doc.where() + " (" + doc.identity()
              + ") has kind " + kind + " in " + apiVersion + ", which no CustomResourceDefinition defines and the "
              + "fake API server does not serve. Add the CRD (withCrds(..), or a CustomResourceDefinition document "
              + "in the seed), or fix apiVersion/kind.");
        }
        String namespace = null;
        if (type.namespaced()) {
          namespace = doc.object().path("metadata").path("namespace").asText("");
          if (namespace.isEmpty()) {
            namespace = "default";
          }
          ResourceType nsType = registry.byPath("", "v1", "namespaces").orElseThrow();
          if (!newNamespaces.contains(namespace) && !store.exists(nsType, null, namespace)) {
            throw new FakeClusterException("Cannot seed the fake cluster: " + doc.where() + " (" + doc.identity()
                + "): namespace \"" + namespace + "\" does not exist. Add a Namespace named " + namespace
                + " to the seed, or create it first.");
          }
        }
        String name = doc.object().path("metadata").path("name").asText("");
        if (!name.isEmpty()) {
          String key = type.storageKey() + "|" + namespace + "|" + name;
          SeedDocument earlier = seen.put(key, doc);
          if (earlier != null) {
            throw new FakeClusterException("Cannot seed the fake cluster: " + doc.where() + " (" + doc.identity()
                + ") is also defined by " + earlier.where() + ". Remove one of them.");
          }
          if (registered.isPresent() && store.exists(type, namespace, name)) {
            throw new FakeClusterException("Cannot seed the fake cluster: " + doc.where() + " (" + doc.identity()
                + ") already exists in the cluster. Remove it from the seed, or change it with "
                + "EventInjector.update(..).");
          }
          if (type.kind().equals("Namespace") && type.group().isEmpty()) {
            newNamespaces.add(name);
          }
        }
        entries.add(new Entry(doc, apiVersion, kind, namespace));
      }
    }
    return new SeedPlan(List.copyOf(entries));
  }

  private static void requireShape(SeedDocument doc) {
    ObjectNode object = doc.object();
    List<String> missing = new ArrayList<>();
    if (object.path("apiVersion").asText("").isEmpty()) {
      missing.add("apiVersion");
    }
    if (object.path("kind").asText("").isEmpty()) {
      missing.add("kind");
    }
    if (object.path("metadata").path("name").asText("").isEmpty()
        && object.path("metadata").path("generateName").asText("").isEmpty()) {
      missing.add("metadata.name");
    }
    if (!missing.isEmpty()) {
      throw new FakeClusterException("Cannot seed the fake cluster: " + doc.where() + " (" + doc.identity()
          + ") has no " + String.join(", no ", missing) + ". Every object needs apiVersion, kind and "
          + "metadata.name (or metadata.generateName).");
    }
  }
}
