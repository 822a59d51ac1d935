package dev.ctk.fake.internal.store;

import static dev.ctk.fake.internal.store.OwnedObjects.object;
import static dev.ctk.fake.internal.store.OwnedObjects.withOwners;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.WriteOptions;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The store's indexes (objects by uid, dependents by owner uid, a namespace's objects) against what a scan of
 * {@link ObjectStore#objects()} finds, through every kind of write.
 */
class ObjectIndexTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-03-01T12:00:00Z"), ZoneOffset.UTC);

  private final ResourceRegistry registry = new ResourceRegistry();
  private final ObjectStore store = new ObjectStore(registry, new ObjectRules(new NameGenerator(7L), CLOCK), 100);
  private final ResourceType namespaces = type("namespaces");
  private final ResourceType configMaps = type("configmaps");
  private final ResourceType secrets = type("secrets");

  @Test
  void dependents_followOwnerReferencesThroughCreateUpdatePatchAndDelete() {
    namespace("default");
    String owner = uid(store.create(configMaps, "default", object("owner"), WriteOptions.API));
    String other = uid(store.create(configMaps, "default", object("other"), WriteOptions.API));
    store.create(secrets, "default", object("a", owner), WriteOptions.API);
    store.create(configMaps, "default", object("b", owner), WriteOptions.API);
    store.create(configMaps, "default", object("c"), WriteOptions.API);

    assertThat(names(store.dependentsOf(owner))).as("configmaps come before secrets, as in a scan")
        .containsExactly("configmaps/b", "secrets/a");

    ObjectNode b = store.get(configMaps, "default", "b").deepCopy();
    ((ObjectNode) b.get("metadata")).remove("ownerReferences");
    store.update(configMaps, "default", "b", b, null, WriteOptions.API);
    store.patch(configMaps, "default", "c", null, copy -> withOwners(copy, owner, other), WriteOptions.API);
    store.patch(secrets, "default", "a", null, copy -> withOwners(copy, other), WriteOptions.API);

    assertThat(names(store.dependentsOf(owner))).containsExactly("configmaps/c");
    assertThat(names(store.dependentsOf(other))).containsExactly("configmaps/c", "secrets/a");

    store.delete(configMaps, "default", "c", DeletePreconditions.NONE, WriteOptions.API);

    assertThat(store.dependentsOf(owner)).isEmpty();
    assertThat(names(store.dependentsOf(other))).containsExactly("secrets/a");
    assertIndexMatchesScan();
  }

  @Test
  void dependents_seeTheStoredObjectAsItIsNow() {
    namespace("default");
    String owner = uid(store.create(configMaps, "default", object("owner"), WriteOptions.API));
    store.create(configMaps, "default", object("dependent", owner), WriteOptions.API);
    ObjectNode labelled = store.patch(configMaps, "default", "dependent", null, copy -> {
      ((ObjectNode) copy.get("metadata")).putObject("labels").put("tier", "web");
      return copy;
    }, WriteOptions.API);

    assertThat(store.dependentsOf(owner)).singleElement()
        .satisfies(found -> assertThat(found.object()).isSameAs(labelled))
        .satisfies(found -> assertThat(found.type()).isEqualTo(configMaps));
  }

  @Test
  void byUid_findsTheLiveObjectOnly() {
    namespace("default");
    ObjectNode first = store.create(configMaps, "default", object("web"), WriteOptions.API);
    store.delete(configMaps, "default", "web", DeletePreconditions.NONE, WriteOptions.API);
    ObjectNode second = store.create(configMaps, "default", object("web"), WriteOptions.API);

    assertThat(store.byUid(uid(first))).isEmpty();
    assertThat(store.byUid(uid(second))).map(StoredObject::object).contains(second);
    assertThat(store.byUid("")).isEmpty();
  }

  @Test
  void rollBack_leavesNoIndexEntry() {
    namespace("default");
    String owner = uid(store.create(configMaps, "default", object("owner"), WriteOptions.API));
    ObjectNode written = store.create(configMaps, "default", object("dependent", owner), WriteOptions.API);

    store.rollBack(configMaps, written);

    assertThat(store.dependentsOf(owner)).isEmpty();
    assertThat(store.byUid(uid(written))).isEmpty();
  }

  @Test
  void namespaceObjects_areThoseOfThatNamespaceOnly_notOfNamespacesSharingAPrefix() {
    for (String ns : List.of("app", "app-2", "ap", "app0", "apps")) {
      namespace(ns);
      store.create(secrets, ns, object("s-" + ns), WriteOptions.API);
      store.create(configMaps, ns, object("c-" + ns), WriteOptions.API);
    }

    assertThat(names(store.objectsIn("app"))).containsExactly("configmaps/c-app", "secrets/s-app");
    assertThat(store.hasObjectsIn("app")).isTrue();
    assertThat(store.hasObjectsIn("none")).isFalse();

    store.delete(configMaps, "app", "c-app", DeletePreconditions.NONE, WriteOptions.API);
    store.delete(secrets, "app", "s-app", DeletePreconditions.NONE, WriteOptions.API);

    assertThat(store.objectsIn("app")).isEmpty();
    assertThat(store.hasObjectsIn("app")).isFalse();
    assertThat(names(store.objectsIn("app-2"))).containsExactly("configmaps/c-app-2", "secrets/s-app-2");
  }

  @Test
  void randomWrites_indexAlwaysMatchesAScanOfTheStore() {
    Random random = new Random(42);
    List<String> namespaceNames = List.of("a", "a-b", "b");
    namespaceNames.forEach(this::namespace);
    for (int step = 0; step < 400; step++) {
      ResourceType type = random.nextBoolean() ? configMaps : secrets;
      String ns = namespaceNames.get(random.nextInt(namespaceNames.size()));
      String name = "o" + random.nextInt(12);
      String[] owners = randomOwners(random);
      boolean exists = store.exists(type, ns, name);
      int action = random.nextInt(4);
      if (!exists) {
        store.create(type, ns, object(name, owners), WriteOptions.API);
      } else if (action == 0) {
        store.delete(type, ns, name, DeletePreconditions.NONE, WriteOptions.API);
      } else if (action == 1) {
        ObjectNode body = withOwners(store.get(type, ns, name).deepCopy(), owners);
        store.update(type, ns, name, body, null, WriteOptions.API);
      } else {
        store.patch(type, ns, name, null, copy -> withOwners(copy, owners), WriteOptions.API);
      }
      assertIndexMatchesScan();
    }
  }

  // ---- the oracle: what a scan of the whole store finds ----

  private void assertIndexMatchesScan() {
    List<StoredObject> all = store.objects();
    for (StoredObject candidate : all) {
      String uid = candidate.uid();
      List<StoredObject> dependents = new ArrayList<>();
      for (StoredObject object : all) {
        for (JsonNode ref : object.object().path("metadata").path("ownerReferences")) {
          if (uid.equals(ref.path("uid").asText()) && !dependents.contains(object)) {
            dependents.add(object);
          }
        }
      }
      assertThat(store.dependentsOf(uid)).as("dependents of %s", candidate.name()).isEqualTo(dependents);
      assertThat(store.byUid(uid)).as("object with uid of %s", candidate.name()).contains(candidate);
      if (NamespaceLifecycle.isNamespace(candidate.type())) {
        List<StoredObject> inNamespace = all.stream()
            .filter(object -> candidate.name().equals(object.namespace())).toList();
        assertThat(store.objectsIn(candidate.name())).as("objects in %s", candidate.name()).isEqualTo(inNamespace);
        assertThat(store.hasObjectsIn(candidate.name())).isEqualTo(!inNamespace.isEmpty());
      }
    }
  }

  private String[] randomOwners(Random random) {
    List<StoredObject> all = store.objects();
    int count = random.nextInt(3);
    String[] owners = new String[count];
    for (int i = 0; i < count; i++) {
      owners[i] = all.get(random.nextInt(all.size())).uid();
    }
    return owners;
  }

  // ---- fixtures ----

  private ResourceType type(String plural) {
    return registry.byPath("", "v1", plural).orElseThrow();
  }

  private void namespace(String name) {
    store.create(namespaces, null, object(name), WriteOptions.API);
  }

  private static String uid(ObjectNode object) {
    return object.path("metadata").path("uid").asText();
  }

  private static List<String> names(List<StoredObject> objects) {
    return objects.stream().map(o -> o.type().plural() + "/" + o.name()).toList();
  }
}
