package dev.levee.checks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.checks.PublishedClasses.ClassFile;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The module boundaries, checked over the compiled classes (the effect of {@code module-info.java}
 * qualified exports, without JPMS; {@code docs/architecture.md} says why):
 * <ul>
 *   <li>{@code dev.levee.<module>.internal} is used only by its own module, and
 *       {@code dev.levee.core.internal} only by Levee's modules;</li>
 *   <li>a pattern module uses no other pattern module at all (core only); the integration modules
 *       ({@code config}, {@code micrometer}) may use every pattern module, and no pattern module uses
 *       them;</li>
 *   <li>no public or protected member of a public API type names an internal type in its signature,
 *       so nothing public hands users an internal object or only forwards to one.</li>
 * </ul>
 */
class ModuleBoundaryTest {

    private static String moduleOfType(String internalName) {
        String[] parts = internalName.split("/");
        return parts.length > 2 ? parts[2] : "";
    }

    @Test
    void internalPackagesAreUsedOnlyByTheirOwnModuleAndCoreInternalOnlyByLevee() {
        List<String> violations = new ArrayList<>();
        for (ClassFile c : PublishedClasses.all()) {
            for (String type : PublishedClasses.referencedTypes(c.bytes())) {
                if (!type.contains("/internal/")) {
                    continue;
                }
                String owner = moduleOfType(type);
                if (!owner.equals(c.module()) && !owner.equals("core")) {
                    violations.add(c.name() + " -> " + type.replace('/', '.'));
                }
            }
        }
        assertThat(violations).as("uses of another module's internal package").isEmpty();
    }

    @Test
    void aPatternModuleDependsOnCoreOnly() {
        List<String> violations = new ArrayList<>();
        for (ClassFile c : PublishedClasses.all()) {
            if (c.module().equals("core") || PublishedClasses.INTEGRATION_MODULES.contains(c.module())) {
                continue;
            }
            for (String type : PublishedClasses.referencedTypes(c.bytes())) {
                String owner = moduleOfType(type);
                if (PublishedClasses.MODULES.contains(owner) && !owner.equals("core") && !owner.equals(c.module())) {
                    violations.add(c.name() + " -> " + type.replace('/', '.'));
                }
            }
        }
        assertThat(violations).as("a pattern module using another pattern module").isEmpty();
    }

    @Test
    void noPublicApiNamesAnInternalType() {
        List<String> violations = new ArrayList<>();
        for (ClassFile c : PublishedClasses.all()) {
            if (c.isInternal()) {
                continue;
            }
            Class<?> type = PublishedClasses.load(c.name());
            if (!isApi(type)) {
                continue;
            }
            for (Method m : type.getDeclaredMethods()) {
                if (isApiMember(m.getModifiers()) && !m.isSynthetic()) {
                    check(violations, type, m, m.getGenericReturnType());
                    checkParameters(violations, type, m);
                }
            }
            for (Constructor<?> k : type.getDeclaredConstructors()) {
                if (isApiMember(k.getModifiers()) && !k.isSynthetic()) {
                    checkParameters(violations, type, k);
                }
            }
            for (Field f : type.getDeclaredFields()) {
                if (isApiMember(f.getModifiers()) && !f.isSynthetic()) {
                    check(violations, type, f, f.getGenericType());
                }
            }
            if (type.getSuperclass() != null && isInternalName(type.getSuperclass().getName())) {
                violations.add(type.getName() + " extends " + type.getSuperclass().getName());
            }
            for (Class<?> i : type.getInterfaces()) {
                if (isInternalName(i.getName())) {
                    violations.add(type.getName() + " implements " + i.getName());
                }
            }
        }
        assertThat(violations).as("internal types in public signatures").isEmpty();
    }

    private static void checkParameters(List<String> violations, Class<?> type, Executable e) {
        for (Type p : e.getGenericParameterTypes()) {
            check(violations, type, e, p);
        }
    }

    private static void check(List<String> violations, Class<?> owner, Object member, Type type) {
        String text = type.getTypeName();
        if (isInternalName(text)) {
            violations.add(owner.getName() + ": " + member);
        }
    }

    private static boolean isInternalName(String name) {
        return name.matches("(?s).*dev\\.levee\\.[a-z]+\\.internal\\..*");
    }

    private static boolean isApi(Class<?> type) {
        for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
            if (!Modifier.isPublic(t.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    private static boolean isApiMember(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    @Test
    void theCheckSeesEveryPublishedModule() {
        for (String module : PublishedClasses.MODULES) {
            assertThat(PublishedClasses.names(module)).as(module).isNotEmpty();
        }
        assertThat(Set.copyOf(PublishedClasses.MODULES)).hasSize(14);
    }
}
