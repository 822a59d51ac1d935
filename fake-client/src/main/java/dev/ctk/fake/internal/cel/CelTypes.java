package dev.ctk.fake.internal.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.ctk.fake.internal.schema.Schema;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * The CEL type of a schema node, as kube derives it ({@code SchemaDeclType}): an object with properties is a struct
 * type whose fields are the properties CEL can name ({@link PropertyNames}), an object with
 * {@code additionalProperties} a {@code map(string, V)}, an array a {@code list(T)},
 * {@code x-kubernetes-int-or-string} {@code dyn}; {@code integer} is {@code int}, {@code number} {@code double};
 * strings with {@code format: byte}, {@code duration}, {@code date} or {@code date-time} are {@code bytes},
 * {@code duration} and {@code timestamp}. A node without a type (only
 * {@code x-kubernetes-preserve-unknown-fields}) has none: its field is invisible to CEL. At a resource root (the
 * custom resource, an {@code x-kubernetes-embedded-resource}) {@code apiVersion}, {@code kind} and
 * {@code metadata.name}/{@code metadata.generateName} are always fields.
 *
 * <p>Struct types are named as kube names them, from {@code selfType0} (the node the rule is declared on) down, e.g.
 * {@code selfType0.spec}; kube puts a number that changes on every compilation where the fake puts 0.
 */
final class CelTypes {

  /** The type of the node, with every struct type it reaches (for the compiler's type provider). */
  record Declared(CelType type, TypeProvider provider) {
  }

  private static final Map<Schema, Boolean> DECLARED = Collections.synchronizedMap(new WeakHashMap<>());

  private final Map<String, CelType> structs = new LinkedHashMap<>();

  private CelTypes() {}

  /**
   * The CEL type of the node a rule is declared on.
   *
   * @param schema the node
   * @param resourceRoot whether the node is the root of a resource (the custom resource, or an embedded one)
   * @return the type, or {@code null} when kube cannot type the node
   */
  static Declared of(Schema schema, boolean resourceRoot) {
    CelTypes types = new CelTypes();
    CelType type = types.type(schema, resourceRoot, "selfType0");
    return type == null ? null : new Declared(type, new TypeProvider(ImmutableMap.copyOf(types.structs)));
  }

  /**
   * Whether a property with this schema is visible to CEL (it has a type), cached per schema node.
   *
   * @param schema the property's schema
   * @return whether it is declared
   */
  static boolean declared(Schema schema) {
    Boolean known = DECLARED.get(schema);
    if (known == null) {
      known = new CelTypes().type(schema, schema.embeddedResource(), "selfType0") != null;
      DECLARED.put(schema, known);
    }
    return known;
  }

  private CelType type(Schema s, boolean resourceRoot, String name) {
    if (s.intOrString()) {
      return SimpleType.DYN;
    }
    String type = s.types().isEmpty() ? "" : s.types().get(0);
    switch (type) {
      case "array":
        if (s.items() == null) {
          return null;
        }
        CelType items = type(s.items(), s.items().embeddedResource(), name + ".@idx");
        return items == null ? null : ListType.create(items);
      case "object":
        if (s.additionalProperties() != null) {
          Schema values = s.additionalProperties();
          CelType value = type(values, values.embeddedResource(), name + ".@elem");
          return value == null ? null : MapType.create(SimpleType.STRING, value);
        }
        return struct(s, resourceRoot, name);
      case "string":
        return switch (s.format() == null ? "" : s.format()) {
          case "byte" -> SimpleType.BYTES;
          case "duration" -> SimpleType.DURATION;
          case "date", "date-time" -> SimpleType.TIMESTAMP;
          default -> SimpleType.STRING;
        };
      case "boolean":
        return SimpleType.BOOL;
      case "number":
        return SimpleType.DOUBLE;
      case "integer":
        return SimpleType.INT;
      default:
        return null;
    }
  }

  private CelType struct(Schema s, boolean resourceRoot, String name) {
    Map<String, CelType> fields = new LinkedHashMap<>();
    s.properties().forEach((property, schema) -> {
      String escaped = PropertyNames.escape(property);
      if (escaped != null) {
        CelType field = type(schema, schema.embeddedResource(), name + "." + escaped);
        if (field != null) {
          fields.put(escaped, field);
        }
      }
    });
    if (resourceRoot) {
      fields.put("apiVersion", SimpleType.STRING);
      fields.put("kind", SimpleType.STRING);
      String metadataName = name + ".metadata";
      ImmutableMap<String, CelType> meta = ImmutableMap.of("name", SimpleType.STRING, "generateName",
          SimpleType.STRING);
      structs.put(metadataName, StructType.create(metadataName, meta.keySet(),
          field -> Optional.ofNullable(meta.get(field))));
      fields.put("metadata", structs.get(metadataName));
    }
    ImmutableMap<String, CelType> frozen = ImmutableMap.copyOf(fields);
    StructType struct = StructType.create(name, frozen.keySet(), field -> Optional.ofNullable(frozen.get(field)));
    structs.put(name, struct);
    return struct;
  }

  /** The struct types of one rule node, for the type checker. */
  static final class TypeProvider implements CelTypeProvider {
    private final ImmutableMap<String, CelType> types;

    TypeProvider(ImmutableMap<String, CelType> types) {
      this.types = types;
    }

    @Override
    public ImmutableCollection<CelType> types() {
      return ImmutableList.copyOf(types.values());
    }

    @Override
    public Optional<CelType> findType(String typeName) {
      return Optional.ofNullable(types.get(typeName));
    }
  }
}
