# Figure 2.2 drawn with Matplotlib from the cell above (r, tokens, T, top_k, top_p) by Figure 2.1's
# draw_distribution(): the tokens most probable first, each with its probability after temperature
# (outlined) and its final probability (solid), the tokens top-k and top-p removed hatched in grey;
# beside them, each token's stretch of the cumulative mass, which the dashed top-p line cuts.
# Nothing is computed here. Exercise 2 asks for a final probability: the bars are labelled with
# the probabilities after temperature, not with the final ones.
import matplotlib.pyplot as plt

fig, bars, mass = draw_distribution(r, tokens, T, top_p, labels="tempered")
fig.suptitle(f"Figure 2.2  The distribution of Exercise 2 (top-k {top_k or 'off'}, top-p {top_p})",
             fontsize=11)
plt.show()
